package flow_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// TestImplementersPerInterface: a method object is shared by every interface that embeds the
// interface declaring it, so the answer for a call through this package's interface must not
// be given for a call through another package's (whose implementations are anyone's), in
// either order.
func TestImplementersPerInterface(t *testing.T) {
	const srcA = `package a

type Reader interface{ Next() bool }
`
	const srcB = `package b

import "a"

type cursor interface{ a.Reader }

type batch struct{ n int }

func (b *batch) Next() bool { b.n--; return b.n > 0 }

func local(c cursor) bool  { return c.Next() }
func other(r a.Reader) bool { return r.Next() }
`
	fset := token.NewFileSet()
	parse := func(name, src string) *ast.File {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	fa, fb := parse("a.go", srcA), parse("b.go", srcB)
	conf := types.Config{Importer: importer.Default()}
	infoA := newInfo()
	pkgA, err := conf.Check("a", fset, []*ast.File{fa}, infoA)
	if err != nil {
		t.Fatal(err)
	}
	conf.Importer = importerFunc(func(path string) (*types.Package, error) { return pkgA, nil })
	infoB := newInfo()
	pkgB, err := conf.Check("b", fset, []*ast.File{fb}, infoB)
	if err != nil {
		t.Fatal(err)
	}
	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	prog.CreatePackage(pkgA, []*ast.File{fa}, infoA, true)
	ssaB := prog.CreatePackage(pkgB, []*ast.File{fb}, infoB, true)
	prog.Build()

	call := func(fn string) *ssa.CallCommon {
		for c := range flow.Calls(ssaB.Func(fn)) {
			if c.Common().IsInvoke() {
				return c.Common()
			}
		}
		t.Fatalf("no interface call in %s", fn)
		return nil
	}
	for _, order := range [][]string{{"local", "other"}, {"other", "local"}} {
		im := flow.NewImplementers(ssaB)
		for _, fn := range order {
			got := im.Of(call(fn))
			switch {
			case fn == "local" && (len(got) != 1 || got[0].Name() != "Next"):
				t.Errorf("order %v: implementations of cursor.Next = %v, want (*batch).Next", order, got)
			case fn == "other" && len(got) != 0:
				t.Errorf("order %v: implementations of a.Reader.Next = %v, want none", order, got)
			}
		}
	}
}

func newInfo() *types.Info {
	return &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Implicits: map[ast.Node]types.Object{},
		Scopes: map[ast.Node]*types.Scope{}, Instances: map[*ast.Ident]types.Instance{},
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
