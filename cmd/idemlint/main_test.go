package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests build idemlint and drive it every way users do, on the small module in
// testdata/shop: standalone, go vet -vettool, go vet -fix -diff, go fix -fixtool.

var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "idemlint-bin")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "idemlint")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const want = `payments/payments.go:18:10: rand.Text makes a new idempotency key (header "Idempotency-Key") on every attempt of retrylib.Do, so the server cannot deduplicate the retries`

// shop copies the test module into a fresh directory.
func shop(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS("testdata/shop")))
	return dst
}

type result struct {
	stdout, stderr string
	code           int
}

func run(t *testing.T, dir string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{stdout.String(), stderr.String(), code}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func TestStandalone(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	r := run(t, dir, bin, "./...")
	assert.Equal(t, 3, r.code, "exit code with diagnostics")
	assert.Contains(t, r.stderr, want)
	assert.Equal(t, 1, strings.Count(r.stderr, "idempotency key"), "exactly one diagnostic: %s", r.stderr)

	r = run(t, dir, bin, "-keyinloop", "./...")
	assert.Equal(t, 3, r.code)
	assert.Contains(t, r.stderr, want)

	r = run(t, dir, bin, "-keyinloop=false", "./...")
	assert.Equal(t, 0, r.code, "keyinloop disabled: %s", r.stderr)
	assert.Empty(t, r.stderr)
}

func TestJSON(t *testing.T) {
	t.Parallel()
	r := run(t, shop(t), bin, "-json", "./...")
	assert.Equal(t, 0, r.code, "-json reports through its output, not its exit code")
	var out map[string]map[string][]struct {
		Posn     string `json:"posn"`
		Message  string `json:"message"`
		Category string `json:"category"`
		Fixes    []any  `json:"suggested_fixes"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	diags := out["example.com/shop/payments"]["keyinloop"]
	require.Len(t, diags, 1)
	assert.Regexp(t, `payments\.go:18:10$`, diags[0].Posn)
	assert.Contains(t, diags[0].Message, "makes a new idempotency key (header \"Idempotency-Key\") on every attempt")
	assert.Len(t, diags[0].Fixes, 1)
}

func TestFix(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	file := filepath.Join(dir, "payments", "payments.go")
	orig := read(t, file)

	r := run(t, dir, bin, "-fix", "-diff", "./...")
	assert.Contains(t, r.stdout, "+\tkey := rand.Text()")
	assert.Equal(t, orig, read(t, file), "-diff must not change files")

	r = run(t, dir, bin, "-fix", "./...")
	assert.Equal(t, read(t, filepath.Join(dir, "payments", "payments.go.fixed")), read(t, file))

	r = run(t, dir, bin, "./...")
	assert.Equal(t, 0, r.code, "nothing left to report after the fix: %s", r.stderr)
}

func TestGoVet(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	// The helper is in another package: the finding needs retryscope's facts across packages.
	r := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, want)

	r = run(t, dir, "go", "vet", "-vettool="+bin, "-keyinloop=false", "./...")
	assert.Equal(t, 0, r.code, r.stderr)
}

func TestGoVetFixDiff(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	file := filepath.Join(dir, "payments", "payments.go")
	orig := read(t, file)
	r := run(t, dir, "go", "vet", "-vettool="+bin, "-fix", "-diff", "./...")
	assert.Equal(t, 1, r.code, "a non-empty diff exits 1: %s", r.stderr)
	assert.Contains(t, r.stdout, "+\tkey := rand.Text()")
	assert.Contains(t, r.stdout, "-\t\tkey := rand.Text()")
	assert.Equal(t, orig, read(t, file))
}

func TestGoFix(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	r := run(t, dir, "go", "fix", "-fixtool="+bin, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	file := filepath.Join(dir, "payments", "payments.go")
	assert.Equal(t, read(t, filepath.Join(dir, "payments", "payments.go.fixed")), read(t, file))
}

func TestVersion(t *testing.T) {
	t.Parallel()
	r := run(t, ".", bin, "-V=full")
	assert.Equal(t, 0, r.code)
	// The go command's tool-ID protocol: "NAME version devel ... buildID=HASH".
	assert.Regexp(t, regexp.MustCompile(`^idemlint version devel \S+ buildID=[0-9a-f]{64}\n$`), r.stdout)

	r = run(t, ".", bin, "-version")
	assert.Equal(t, 0, r.code)
	assert.Regexp(t, `^idemlint \S+\n$`, r.stdout)
}
