package flow_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// TestCaptured: what a closure's captured variable holds, through closures made in closures
// and through the box of a variable some closure assigns; nil when it holds several values.
func TestCaptured(t *testing.T) {
	const src = `package p

func use(string) {}

func nested(method string) {
	outer := func() {
		inner := func() { use(method) }
		inner()
	}
	outer()
}

func assigned(method string) {
	f := func() { use(method) }
	g := func() { method = "GET" }
	g()
	f()
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{}, fset, types.NewPackage("p", ""), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	// argOfUse returns the argument of the call of use in fn.
	argOfUse := func(fn *ssa.Function) ssa.Value {
		for c := range flow.Calls(fn) {
			if callee := c.Common().StaticCallee(); callee != nil && callee.Name() == "use" {
				return c.Common().Args[0]
			}
		}
		t.Fatalf("no call of use in %s", fn)
		return nil
	}
	nested := pkg.Func("nested")
	inner := nested.AnonFuncs[0].AnonFuncs[0]
	if got := flow.Captured(argOfUse(inner)); got != nested.Params[0] {
		t.Errorf("nested: Captured = %v, want the parameter method", got)
	}
	assigned := pkg.Func("assigned")
	if got := flow.Captured(argOfUse(assigned.AnonFuncs[0])); got != nil {
		t.Errorf("assigned: Captured = %v, want nil (two values are stored)", got)
	}
	if got := flow.Captured(nested.Params[0]); got != nested.Params[0] {
		t.Errorf("a parameter: Captured = %v, want itself", got)
	}
}
