package ssapkg_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
)

// TestUsedImports checks that an import is created with only the members the package names,
// and that a function of another package reads as one without a body.
func TestUsedImports(t *testing.T) {
	testdata, _ := filepath.Abs("../../../testdata")
	results := analysistest.Run(t, testdata, ssapkg.Analyzer, "ssapkg/use")
	s := results[0].Result.(*buildssa.SSA)
	if s.Pkg == nil || len(s.SrcFuncs) == 0 {
		t.Fatal("no SSA built")
	}
	var lib *ssa.Package
	for _, p := range s.Pkg.Prog.AllPackages() {
		if p.Pkg.Path() == "ssapkg/lib" {
			lib = p
		}
	}
	if lib == nil {
		t.Fatal("ssapkg/lib was not created")
	}
	for _, name := range []string{"New", "Map", "Endpoint"} {
		if lib.Members[name] == nil {
			t.Errorf("lib.%s is named by the package but was not created", name)
		}
	}
	for _, name := range []string{"Unused", "NeverCalled"} {
		if lib.Members[name] != nil {
			t.Errorf("lib.%s is not named by the package but was created (every member was: the fallback ran?)", name)
		}
	}
	var callees []string
	for _, fn := range ssapkg.AllFuncs(s) {
		for c := range flow.Calls(fn) {
			callee := c.Common().StaticCallee()
			if callee == nil || callee.Object() == nil || callee.Object().Pkg() == s.Pkg.Pkg {
				continue
			}
			callees = append(callees, callee.Object().Name())
			if flow.Syntax(callee) != nil {
				t.Errorf("%s: flow.Syntax of a function of another package is not nil", callee)
			}
			if callee.Synthetic == flow.FromTypes && len(callee.Blocks) != 0 {
				t.Errorf("%s: a function of another package has a body", callee)
			}
		}
	}
	for _, want := range []string{"New", "Do", "Name", "Map"} {
		if !slices.Contains(callees, want) {
			t.Errorf("no static call of lib's %s among %v", want, callees)
		}
	}
}

// TestVarInitClosures checks that the closures in package variables' initialisers (and the
// closures inside them) are source functions, and the package initialiser is not.
func TestVarInitClosures(t *testing.T) {
	testdata, _ := filepath.Abs("../../../testdata")
	results := analysistest.Run(t, testdata, ssapkg.Analyzer, "ssapkg/use")
	s := results[0].Result.(*buildssa.SSA)
	var anon int
	for _, fn := range s.SrcFuncs {
		if fn.Name() == "init" {
			t.Errorf("the package initialiser is among the source functions")
		}
		if p := fn.Parent(); p != nil && (p.Name() == "init" || p.Parent() != nil && p.Parent().Name() == "init") {
			anon++
		}
	}
	if anon != 3 {
		t.Errorf("got %d closures of the package initialiser among the source functions, want 3", anon)
	}
	if all := ssapkg.AllFuncs(s); len(all) != len(s.SrcFuncs)+1 {
		t.Errorf("AllFuncs has %d functions, want the %d source functions and the initialiser", len(all), len(s.SrcFuncs))
	}
}

// TestNoDirectSyntax keeps the analyzers on flow.Syntax: for a function of another package,
// (*ssa.Function).Syntax returns the declaration without a body that ssapkg made for it.
func TestNoDirectSyntax(t *testing.T) {
	root, _ := filepath.Abs("../..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, string(filepath.Separator)+"flow"+string(filepath.Separator)) ||
			// checktest reads packages.Package.Syntax, the files of a loaded package, not ssa's.
			strings.Contains(path, string(filepath.Separator)+"checktest"+string(filepath.Separator)) {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			// Any x.Syntax but flow.Syntax: a call, or a method value kept for later.
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Syntax" && !isIdent(sel.X, "flow") {
				t.Errorf("%s: calls Syntax directly; use flow.Syntax", path)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
