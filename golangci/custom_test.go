package golangci_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// golangciVersion is the golangci-lint the plugin is built into; it uses the same
// golang.org/x/tools as idemlint.
const golangciVersion = "v2.15.0"

// TestCustomBinary does what `golangci-lint custom` does (which clones golangci-lint with git;
// here the source comes from the module proxy): it adds the plugin's import to golangci-lint's
// main package, builds the binary, and runs it, with --fix too, on cmd/idemlint's test module,
// with the plugin as one linter and as one linter per check.
func TestCustomBinary(t *testing.T) {
	if testing.Short() || os.Getenv("IDEMLINT_SKIP_GOLANGCI") == "1" {
		t.Skip("builds golangci-lint (minutes, or seconds from its cache); unset IDEMLINT_SKIP_GOLANGCI to run")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	bin := customBinary(t, root)
	work := t.TempDir()

	// The test module, with a configuration that enables the plugin.
	shop := filepath.Join(work, "shop")
	require.NoError(t, os.CopyFS(shop, os.DirFS(filepath.Join(root, "cmd", "idemlint", "testdata", "shop"))))
	configure := func(config string) {
		require.NoError(t, os.WriteFile(filepath.Join(shop, ".golangci.yml"), []byte(config), 0o644))
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = shop
		cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+filepath.Join(work, "cache"), "GOWORK=off")
		out, err := cmd.CombinedOutput()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else {
			require.NoError(t, err, string(out))
		}
		return string(out), code
	}
	const message = "rand.Text makes a new idempotency key (header \"Idempotency-Key\") on every attempt of retrylib.Do"

	configure(`version: "2"
linters:
  default: none
  enable: [idemlint]
  settings:
    custom:
      idemlint:
        type: module
        description: retry and idempotency mistakes
        settings:
          keys.names: [x-dedup-id]
`)
	out, code := run("run", "./...")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "payments/payments.go:18:10: keyinloop: "+message)
	assert.Contains(t, out, "(idemlint)")

	// One linter per check: the check names the rule.
	configure(`version: "2"
linters:
  default: none
  enable: [keyinloop, notimeout]
  settings:
    custom:
      keyinloop:
        type: module
        settings:
          keys.names: [x-dedup-id]
      notimeout:
        type: module
output:
  formats:
    sarif:
      path: report.sarif
    text:
      path: stdout
`)
	out, code = run("run", "./...")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "payments/payments.go:18:10: "+message)
	assert.Contains(t, out, "(keyinloop)")
	data, err := os.ReadFile(filepath.Join(shop, "report.sarif"))
	require.NoError(t, err)
	var sarif struct {
		Runs []struct {
			Results []struct{ RuleID string }
		}
	}
	require.NoError(t, json.Unmarshal(data, &sarif), string(data))
	require.Len(t, sarif.Runs, 1)
	require.Len(t, sarif.Runs[0].Results, 1)
	assert.Equal(t, "keyinloop", sarif.Runs[0].Results[0].RuleID)

	out, code = run("run", "--fix", "./...")
	assert.Equal(t, 0, code, out)
	want, err := os.ReadFile(filepath.Join(shop, "payments", "payments.go.fixed"))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(shop, "payments", "payments.go"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// customBinary returns golangci-lint built with the plugin. The binary is kept in a cache
// ($IDEMLINT_GOLANGCI_CACHE, or idemlint/golangci in the user's cache directory) under a key
// made of golangci-lint's version, Go's version and the source of every package of this
// module that the plugin is built from, so that it is rebuilt only when one of them changes.
func customBinary(t *testing.T, root string) string {
	dir := os.Getenv("IDEMLINT_GOLANGCI_CACHE")
	if dir == "" {
		base, err := os.UserCacheDir()
		require.NoError(t, err)
		dir = filepath.Join(base, "idemlint", "golangci")
	}
	name := fmt.Sprintf("custom-gcl-%s-%s", golangciVersion, pluginHash(t, root))
	bin := filepath.Join(dir, name)
	if _, err := os.Stat(bin); err == nil {
		t.Logf("golangci-lint with the plugin, from the cache: %s", bin)
		return bin
	}
	t.Logf("building golangci-lint %s with the plugin into %s", golangciVersion, bin)
	work := t.TempDir()

	// golangci-lint's source, from the module cache.
	out := goCmd(t, work, "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+golangciVersion)
	var mod struct{ Dir string }
	require.NoError(t, json.Unmarshal([]byte(out), &mod))
	src := filepath.Join(work, "golangci-lint")
	require.NoError(t, os.CopyFS(src, os.DirFS(mod.Dir)))
	require.NoError(t, filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			err = os.Chmod(p, map[bool]os.FileMode{true: 0o755, false: 0o644}[d.IsDir()])
		}
		return err
	}))
	plugins := "package main\n\nimport _ \"github.com/idemlint/idemlint/golangci\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(src, "cmd", "golangci-lint", "plugins.go"), []byte(plugins), 0o644))
	goCmd(t, src, "mod", "edit", "-require=github.com/idemlint/idemlint@v0.0.0", "-replace=github.com/idemlint/idemlint="+root)
	goCmd(t, src, "mod", "tidy")
	built := filepath.Join(work, "custom-gcl")
	goCmd(t, src, "build", "-o", built, "./cmd/golangci-lint")

	// Keep only this build: older ones are for sources that have changed.
	require.NoError(t, os.MkdirAll(dir, 0o755))
	old, _ := filepath.Glob(filepath.Join(dir, "custom-gcl-*"))
	for _, o := range old {
		os.Remove(o)
	}
	tmp := bin + ".tmp" + fmt.Sprint(os.Getpid())
	data, err := os.ReadFile(built)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(tmp, data, 0o755))
	require.NoError(t, os.Rename(tmp, bin)) // atomic: a concurrent run sees all or nothing
	return bin
}

// pluginHash hashes Go's version, go.mod, go.sum and the files of every package of this
// module that ./golangci depends on.
func pluginHash(t *testing.T, root string) string {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version())
	files := []string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}
	out := goCmd(t, root, "list", "-deps", "-f", `{{if .Module}}{{if .Module.Main}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}{{end}}`, "./golangci")
	files = append(files, strings.Fields(out)...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, f)
		fmt.Fprintf(h, "%s %d\n", rel, len(data))
		h.Write(data)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if exit, ok := err.(*exec.ExitError); ok {
			stderr = string(exit.Stderr)
		}
		t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
	}
	return string(out)
}
