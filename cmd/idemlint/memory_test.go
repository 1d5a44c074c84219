package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// generate writes a module of n packages, each importing the previous two and holding funcs
// functions that retry HTTP calls through a helper of the package below.
func generate(t *testing.T, n, funcs int) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/gen\n\ngo 1.26\n"), 0o644))
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%03d\n\nimport (\n\t\"context\"\n\t\"crypto/rand\"\n\tmrand \"math/rand/v2\"\n\t\"net/http\"\n\t\"time\"\n", i)
		for _, dep := range []int{i - 1, i - 2} {
			if dep >= 0 {
				fmt.Fprintf(&b, "\n\tp%03d \"example.com/gen/p%03d\"\n", dep, dep)
			}
		}
		fmt.Fprintf(&b, ")\n\nvar client = &http.Client{Timeout: time.Second}\n\n")
		fmt.Fprintf(&b, `// Retry calls fn until it succeeds.
func Retry(ctx context.Context, fn func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(mrand.Int64N(int64(time.Millisecond << i))))
	}
	return err
}
`)
		for f := range funcs {
			retry := "Retry"
			if i > 0 {
				retry = fmt.Sprintf("p%03d.Retry", i-1)
			}
			fmt.Fprintf(&b, `
func Call%d(ctx context.Context, url string, body map[string]string) error {
	key := rand.Text()
	return %s(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+body["path"], nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		for k, v := range body {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return http.ErrHandlerTimeout
		}
		return nil
	})
}
`, f, retry)
		}
		if i >= 2 {
			fmt.Fprintf(&b, "\nvar _ = p%03d.Retry\n", i-2)
		}
		p := filepath.Join(dir, fmt.Sprintf("p%03d", i), "p.go")
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	}
	return dir
}

// The standalone driver's memory is bounded by what go vet -vettool=idemlint needs on the
// same packages, not by the size of the program: a driver that loads every package at once
// needs several times as much.
func TestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses a generated module of 48 packages twice")
	}
	t.Parallel() // each measurement covers its own process group only
	dir := generate(t, 48, 40)
	salt := func(s string) string { return fmt.Sprintf("-keys.names=x-memory-%s-%d", s, os.Getpid()) } // bypass vet's cache
	vettool := measure(t, dir, "go", "vet", "-vettool="+bin, salt("vet"), "./...")
	require.Equal(t, 0, vettool.Code)
	standalone := measure(t, dir, bin, salt("standalone"), "./...")
	require.Equal(t, exitClean, standalone.Code)
	t.Logf("go vet -vettool: largest process %d MB, all processes %d MB; standalone: largest %d MB, all %d MB",
		vettool.MaxRSS>>20, vettool.TreeRSS>>20, standalone.MaxRSS>>20, standalone.TreeRSS>>20)
	assert.LessOrEqual(t, float64(standalone.MaxRSS), 1.5*float64(vettool.MaxRSS), "largest process")
	if vettool.TreeRSS > 0 {
		assert.LessOrEqual(t, float64(standalone.TreeRSS), 1.5*float64(vettool.TreeRSS), "all processes at once")
	}

	// With -p=1 one package is analysed at a time: all the processes together hold little
	// more than the largest one (the go command, and the driver, beside it).
	serial := measure(t, dir, bin, "-p=1", salt("serial"), "./...")
	require.Equal(t, exitClean, serial.Code)
	t.Logf("standalone -p=1: largest %d MB, all %d MB", serial.MaxRSS>>20, serial.TreeRSS>>20)
	if serial.TreeRSS > 0 {
		assert.LessOrEqual(t, float64(serial.TreeRSS), 1.5*float64(vettool.MaxRSS), "-p=1: all processes against the largest go vet -vettool process")
	}
}
