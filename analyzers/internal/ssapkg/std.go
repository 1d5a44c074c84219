package ssapkg

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// IsStd reports whether the pass analyses a package of the standard library (its files are
// under GOROOT). The models skip it (ssapkg builds no SSA for it): the standard library's
// internal retries (database/sql retrying a bad connection, net/http replaying an idempotent
// request) are transparent to callers and not what idemlint's checks are about.
func IsStd(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	if first, _, _ := strings.Cut(pass.Pkg.Path(), "/"); strings.Contains(first, ".") {
		return false
	}
	tf := pass.Fset.File(pass.Files[0].Pos())
	if tf == nil {
		return false
	}
	for _, root := range []string{build.Default.GOROOT, os.Getenv("GOROOT")} {
		if root != "" && strings.HasPrefix(tf.Name(), filepath.Join(root, "src")+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

var stdPaths sync.Map // import path -> bool

// IsStdPath reports whether path is a package of the standard library: one without a dot in
// its first element whose directory is under GOROOT/src.
func IsStdPath(path string) bool {
	if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") || path == "" {
		return false
	}
	if v, ok := stdPaths.Load(path); ok {
		return v.(bool)
	}
	_, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(path)))
	stdPaths.Store(path, err == nil)
	return err == nil
}
