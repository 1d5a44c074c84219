package golangci_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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
// main package, builds the binary, and runs it, with --fix too, on cmd/idemlint's test module.
func TestCustomBinary(t *testing.T) {
	if testing.Short() || os.Getenv("IDEMLINT_SKIP_GOLANGCI") == "1" {
		t.Skip("builds golangci-lint (minutes); unset IDEMLINT_SKIP_GOLANGCI to run")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
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
	bin := filepath.Join(work, "custom-gcl")
	goCmd(t, src, "build", "-o", bin, "./cmd/golangci-lint")

	// The test module, with a configuration that enables the plugin.
	shop := filepath.Join(work, "shop")
	require.NoError(t, os.CopyFS(shop, os.DirFS(filepath.Join(root, "cmd", "idemlint", "testdata", "shop"))))
	config := `version: "2"
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
`
	require.NoError(t, os.WriteFile(filepath.Join(shop, ".golangci.yml"), []byte(config), 0o644))

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
	out, code := run("run", "./...")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "payments/payments.go:18:10: keyinloop: rand.Text makes a new idempotency key (header \"Idempotency-Key\") on every attempt of retrylib.Do")
	assert.Contains(t, out, "(idemlint)")

	out, code = run("run", "--fix", "./...")
	assert.Equal(t, 0, code, out)
	want, err := os.ReadFile(filepath.Join(shop, "payments", "payments.go.fixed"))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(shop, "payments", "payments.go"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
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
