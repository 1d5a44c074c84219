package notimeout_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"

	"github.com/idemlint/idemlint/analyzers/internal/checktest"
	"github.com/idemlint/idemlint/analyzers/notimeout"
)

// TestMain runs the tests with less garbage collection: most of their time is go/packages
// parsing and type-checking net/http and its dependencies from source, which makes garbage
// that is not worth collecting in a process this short.
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	os.Exit(m.Run())
}

// TestDefault pins the default of -notimeout.default, before TestNoTimeout sets it.
func TestDefault(t *testing.T) {
	if got := notimeout.Analyzer.Flags.Lookup("default").DefValue; got != "30s" {
		t.Errorf("-notimeout.default defaults to %s, want 30s", got)
	}
	if got := time.Duration(notimeout.Default); got != 30*time.Second {
		t.Errorf("Default = %s, want 30s", got)
	}
}

// TestNoTimeout runs notimeout on every package under testdata/src/notimeout, in one load:
// loading is almost all of the time. It runs with -notimeout.default=1500ms, so that every
// golden shows the flag reaching the fix; TestDefault pins the default.
func TestNoTimeout(t *testing.T) {
	if err := notimeout.Analyzer.Flags.Set("default", "1500ms"); err != nil {
		t.Fatal(err)
	}
	defer notimeout.Analyzer.Flags.Set("default", "30s")
	testdata, _ := filepath.Abs("../../testdata")
	src := filepath.Join(testdata, "src")
	var pkgs []string
	err := filepath.WalkDir(filepath.Join(src, "notimeout"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if gos, _ := filepath.Glob(filepath.Join(path, "*.go")); len(gos) > 0 {
			rel, _ := filepath.Rel(src, path)
			pkgs = append(pkgs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// An SDK's own package: its client's methods calling each other are not uses of it.
	pkgs = append(pkgs, "github.com/minio/minio-go/v7")
	checktest.Run(t, testdata, notimeout.Analyzer, pkgs...)
}

func TestDefaultFlagRejects(t *testing.T) {
	for _, bad := range []string{"0s", "-1m", "soon"} {
		if err := notimeout.Analyzer.Flags.Set("default", bad); err == nil {
			t.Errorf("-notimeout.default=%s accepted", bad)
		}
	}
}

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{30 * time.Second, "30 * time.Second"},
		{time.Second, "time.Second"},
		{500 * time.Millisecond, "500 * time.Millisecond"},
		{2 * time.Minute, "2 * time.Minute"},
		{90 * time.Second, "90 * time.Second"},
		{time.Hour, "time.Hour"},
		{1500 * time.Microsecond, "1500 * time.Microsecond"},
		{7, "7 * time.Nanosecond"},
	} {
		if got := notimeout.Render(tc.d, "time"); got != tc.want {
			t.Errorf("Render(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestDependencyClient runs in module mode: a library of another module takes no context and
// sends through its own client without a Timeout; its finding is not in this module's run, so
// the calls of it are reported.
func TestDependencyClient(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata/mod/depclient")
	checktest.Run(t, testdata, notimeout.Analyzer, "./adapter")
}
