package flow

import (
	"go/build"
	"path/filepath"
	"strings"

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
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	root := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	return build.Default.GOROOT != "" && strings.HasPrefix(name, root)
}
