// Package guard keeps a panic in an analyzer from crashing its driver: the panic becomes an
// error for the package being analysed, with the stack, as nilaway's WrapRun does. go vet
// then reports that package's failure and goes on with the others.
package guard

import (
	"fmt"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// Run wraps an analyzer's run function.
func Run(name string, run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (res any, err error) {
		defer func() {
			if r := recover(); r != nil {
				res = nil
				err = fmt.Errorf("internal error: %s panicked on package %s: %v\n%s\nplease report it with the code that triggers it", name, pass.Pkg.Path(), r, debug.Stack())
			}
		}()
		return run(pass)
	}
}
