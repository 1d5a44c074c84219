package golangci_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCustomBinary builds golangci-lint with the plugin as scripts/golangci-build does (what
// `golangci-lint custom` does, with golangci-lint's source from the module proxy instead of a
// git clone) and runs it, with --fix too, on cmd/idemlint's test module, with the plugin as one
// linter and as one linter per check.
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
	const message = "rand.Text makes a new idempotency key per attempt of retrylib.Do: retries cannot be deduplicated; move it out"

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

	// golangci-lint shows at most 3 issues with the same text (issues.max-same-issues) and 50
	// per linter (issues.max-issues-per-linter): five calls of http.Get, each with the same
	// message, show as three unless both are 0, as docs/golangci-lint.md advises.
	var calls strings.Builder
	calls.WriteString("// Package health polls dependencies.\npackage health\n\nimport \"net/http\"\n")
	for i := range 5 {
		fmt.Fprintf(&calls, "\n// Check%d asks dependency %d whether it is up.\nfunc Check%d(url string) error {\n\tresp, err := http.Get(url)\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn resp.Body.Close()\n}\n", i, i, i)
	}
	require.NoError(t, os.MkdirAll(filepath.Join(shop, "health"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(shop, "health", "health.go"), []byte(calls.String()), 0o644))
	const limits = `version: "2"
linters:
  default: none
  enable: [idemlint]
  settings:
    custom:
      idemlint:
        type: module
        settings:
          disable: [keyinloop]
`
	configure(limits + "issues:\n  max-issues-per-linter: 0\n  max-same-issues: 0\n")
	out, code = run("run", "./health")
	assert.Equal(t, 1, code, out)
	found := regexp.MustCompile(`(?m)^health/health\.go:\d+:\d+: notimeout: (.*) \(idemlint\)$`).FindAllStringSubmatch(out, -1)
	assert.Len(t, found, 5, "with max-same-issues: 0, every finding: %s", out)
	configure(limits)
	out, _ = run("run", "./health")
	if len(found) == 5 && found[0][1] == found[4][1] {
		assert.Equal(t, 3, strings.Count(out, "notimeout: "), "golangci-lint's default max-same-issues is 3: %s", out)
	}
	require.NoError(t, os.RemoveAll(filepath.Join(shop, "health")))

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

// customBinary returns golangci-lint built with the plugin by scripts/golangci-build, which
// keeps it in a cache ($IDEMLINT_GOLANGCI_CACHE, or idemlint/golangci in the user's cache
// directory) and rebuilds it only when the plugin's source, Go or golangci-lint changes.
// scripts/test runs that script before go test, so that a cold build (10-20 minutes on two
// cores) is not timed by go test; run alone on a cold cache, this test needs -timeout=30m.
func customBinary(t *testing.T, root string) string {
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "golangci-build"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Log(s)
	}
	require.NoError(t, err, "scripts/golangci-build")
	bin := strings.TrimSpace(string(out))
	t.Logf("golangci-lint with the plugin: %s", bin)
	return bin
}
