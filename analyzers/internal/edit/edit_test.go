package edit

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// load type-checks one file of package path p and returns a pass over it.
func load(t *testing.T, p, src string) (*analysis.Pass, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: make(map[ast.Expr]types.TypeAndValue), Defs: make(map[*ast.Ident]types.Object),
		Uses: make(map[*ast.Ident]types.Object), Implicits: make(map[ast.Node]types.Object),
		Scopes: make(map[ast.Node]*types.Scope), FileVersions: make(map[*ast.File]string),
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(p, fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return &analysis.Pass{
		Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info,
		ReadFile: func(string) ([]byte, error) { return []byte(src), nil },
	}, f
}

// at returns the position of the first occurrence of marker in src (a comment /*here*/).
func at(pass *analysis.Pass, src, marker string) token.Pos {
	i := strings.Index(src, marker)
	if i < 0 {
		panic("no marker " + marker)
	}
	return pass.Fset.File(pass.Files[0].Pos()).Pos(i)
}

// apply applies edits to src.
func apply(t *testing.T, pass *analysis.Pass, src string, edits []analysis.TextEdit) string {
	t.Helper()
	tf := pass.Fset.File(pass.Files[0].Pos())
	out, last := "", len(src)
	for i := len(edits) - 1; i >= 0; i-- { // callers give edits in increasing order
		e := edits[i]
		s, end := tf.Offset(e.Pos), tf.Offset(e.End)
		if end > last {
			t.Fatalf("edits out of order: %v", edits)
		}
		out = string(e.NewText) + src[end:last] + out
		last = s
	}
	return src[:last] + out
}

func TestImport(t *testing.T) {
	for _, tc := range []struct {
		name, src, path string
		names           []string
		want            string // the name
		wantImport      string // the spec added, "" for none
	}{
		{
			name: "already imported and visible",
			src:  "package p\n\nimport \"time\"\n\nfunc f() { _ = time.Now(); /*here*/ }\n",
			path: "time", want: "time",
		},
		{
			name: "already imported under an alias",
			src:  "package p\n\nimport tm \"time\"\n\nfunc f() { _ = tm.Now(); /*here*/ }\n",
			path: "time", want: "tm",
		},
		{
			name: "imported but hidden by a parameter",
			src:  "package p\n\nimport \"time\"\n\nvar _ = time.Now\n\nfunc f(time string) { _ = time; /*here*/ }\n",
			path: "time", want: "time2", wantImport: "time2 \"time\"",
		},
		{
			name: "a local variable named like the package",
			src:  "package p\n\nimport \"fmt\"\n\nfunc f() { retry := 3; fmt.Println(retry); /*here*/ }\n",
			path: "github.com/idemlint/idemlint/runtime/retry", want: "retry2", wantImport: "retry2 \"github.com/idemlint/idemlint/runtime/retry\"",
		},
		{
			name: "a package-level declaration of the name in another place",
			src:  "package p\n\nvar rand = 4\n\nfunc f() { /*here*/ }\n",
			path: "math/rand/v2", names: []string{"rand", "randv2"}, want: "randv2", wantImport: "randv2 \"math/rand/v2\"",
		},
		{
			name: "a name declared elsewhere in the file is not taken",
			src:  "package p\n\nfunc g() { randv2 := 1; _ = randv2 }\n\nfunc f() { /*here*/ }\n",
			path: "math/rand/v2", names: []string{"randv2", "mathrand"}, want: "mathrand", wantImport: "mathrand \"math/rand/v2\"",
		},
		{
			name: "a predeclared identifier is not hidden",
			src:  "package p\n\nfunc f() { /*here*/ }\n",
			path: "example.com/len", want: "len2", wantImport: "len2 \"example.com/len\"",
		},
		{
			name: "no import yet",
			src:  "package p\n\nfunc f() { /*here*/ }\n",
			path: "crypto/rand", names: []string{"rand"}, want: "rand", wantImport: "\"crypto/rand\"",
		},
		{
			name: "the package itself",
			src:  "package p\n\nfunc f() { /*here*/ }\n",
			path: "example.com/p", want: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pkgPath := "example.com/p"
			pass, f := load(t, pkgPath, tc.src)
			name, edits := Import(pass.TypesInfo, pass.Pkg, f, tc.path, tc.names, at(pass, tc.src, "/*here*/"))
			if name != tc.want {
				t.Errorf("name = %q, want %q", name, tc.want)
			}
			got := ""
			if len(edits) > 0 {
				got = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(edits[0].NewText)), "import"))
			}
			if got != tc.wantImport {
				t.Errorf("import = %q, want %q", got, tc.wantImport)
			}
		})
	}
}

func TestImportPlacement(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"grouped", "package p\n\nimport (\n\t\"fmt\"\n)\n\nvar _ = fmt.Sprint\n", "package p\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nvar _ = fmt.Sprint\n"},
		{"standard group first", "package p\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/x\"\n)\n", "package p\n\nimport (\n\t\"fmt\"\n\t\"time\"\n\n\t\"example.com/x\"\n)\n"},
		{"in order", "package p\n\nimport (\n\t\"fmt\"\n\t\"unicode\"\n\n\t\"example.com/x\"\n)\n", "package p\n\nimport (\n\t\"fmt\"\n\t\"time\"\n\t\"unicode\"\n\n\t\"example.com/x\"\n)\n"},
		{"first in order", "package p\n\nimport (\n\t\"unicode\"\n)\n", "package p\n\nimport (\n\t\"time\"\n\t\"unicode\"\n)\n"},
		{"no standard group", "package p\n\nimport (\n\t\"example.com/x\"\n)\n", "package p\n\nimport (\n\t\"example.com/x\"\n\t\"time\"\n)\n"},
		{"single", "package p\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n", "package p\n\nimport \"fmt\"\n\nimport \"time\"\n\nvar _ = fmt.Sprint\n"},
		{"none", "package p\n\nvar x = 1\n", "package p\n\nimport \"time\"\n\nvar x = 1\n"},
		{"after cgo", "package p\n\n// #include <stdlib.h>\nimport \"C\"\n\nvar x = 1\n", "package p\n\n// #include <stdlib.h>\nimport \"C\"\n\nimport \"time\"\n\nvar x = 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", tc.src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			e := importEdit(f, `"time"`)
			tf := fset.File(f.Pos())
			got := tc.src[:tf.Offset(e.Pos)] + string(e.NewText) + tc.src[tf.Offset(e.End):]
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestFreshNameAndFree(t *testing.T) {
	src := "package p\n\nvar idempotencyKey = 1\n\nfunc f(key string) {\n\tfor i := 0; i < 3; i++ {\n\t\tidempotencyKey2 := key\n\t\t_ = idempotencyKey2\n\t}\n}\n"
	pass, f := load(t, "example.com/p", src)
	var loop ast.Stmt
	ast.Inspect(f, func(n ast.Node) bool {
		if fs, ok := n.(*ast.ForStmt); ok {
			loop = fs
		}
		return loop == nil
	})
	if got := FreshName(pass.Pkg, loop, "idempotencyKey"); got != "idempotencyKey3" {
		t.Errorf("FreshName = %q, want idempotencyKey3 (1 is a package variable, 2 is written in the loop)", got)
	}
	if Free(pass.Pkg, "key", loop.Pos()) {
		t.Error("the parameter key is free before the loop")
	}
	if !Free(pass.Pkg, "len", loop.Pos()) {
		t.Error("a predeclared name is not free for a variable")
	}
}

func TestMovable(t *testing.T) {
	src := "package p\n\nimport \"strings\"\n\nfunc f(s string) {\n\t/*before*/ for i := 0; i < 3; i++ {\n\t\tconst sep = \"-\"\n\t\ta := strings.ToUpper(s)\n\t\tb := s + sep\n\t\t_, _ = a, b\n\t}\n}\n"
	pass, f := load(t, "example.com/p", src)
	before := at(pass, src, "/*before*/")
	var a, b ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
			switch as.Lhs[0].(*ast.Ident).Name {
			case "a":
				a = as.Rhs[0]
			case "b":
				b = as.Rhs[0]
			}
		}
		return true
	})
	if !Movable(pass.TypesInfo, pass.Pkg, a, before) {
		t.Error("strings.ToUpper(s) cannot move before the loop")
	}
	if Movable(pass.TypesInfo, pass.Pkg, b, before) {
		t.Error("s + sep moves before the loop, leaving the loop's constant behind")
	}
}

func TestAddField(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "package p\n\nvar _ = struct{ A, B int }{}\n", "package p\n\nvar _ = struct{ A, B int }{B: 1}\n"},
		{"one line", "package p\n\nvar _ = struct{ A, B int }{A: 1}\n", "package p\n\nvar _ = struct{ A, B int }{A: 1, B: 1}\n"},
		{"lines", "package p\n\nvar _ = struct{ A, B int }{\n\tA: 1,\n}\n", "package p\n\nvar _ = struct{ A, B int }{\n\tA: 1,\n\tB: 1,\n}\n"},
		{"positional", "package p\n\nvar _ = struct{ A, B int }{1, 2}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pass, f := load(t, "example.com/p", tc.src)
			var lit *ast.CompositeLit
			ast.Inspect(f, func(n ast.Node) bool {
				if cl, ok := n.(*ast.CompositeLit); ok {
					lit = cl
				}
				return lit == nil
			})
			e, ok := AddField(pass.Fset, []byte(tc.src), lit, "B: 1")
			if !ok {
				if tc.want != "" {
					t.Fatal("no edit")
				}
				return
			}
			if got := apply(t, pass, tc.src, []analysis.TextEdit{e}); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestWriter(t *testing.T) {
	const head = "package p\n\nimport \"time\"\n\n"
	for _, tc := range []struct {
		name, path, body, want string
	}{
		{"runtime: full jitter", "github.com/idemlint/idemlint/cmd/x", "func f(d time.Duration) { time.Sleep(d) }\n", "retry.FullJitter(d)"},
		{"positive constant", "example.com/p", "func f() { time.Sleep(2 * time.Second) }\n", "rand.N(2 * time.Second)"},
		{"untyped constant", "example.com/p", "func f() { time.Sleep(250000000) }\n", "rand.N(time.Duration(250000000))"},
		{"a variable may be zero", "example.com/p", "func f(d time.Duration) { time.Sleep(d) }\n", "time.Duration(rand.Float64() * float64(d))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.body
			pass, f := load(t, tc.path, src)
			var call *ast.CallExpr
			ast.Inspect(f, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					call = c
				}
				return call == nil
			})
			got, _, ok := NewWriter(pass, f).Jitter(call.Args[0])
			if !ok || got != tc.want {
				t.Errorf("Jitter = %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
	pass, f := load(t, "example.com/p", "package p\n\nfunc f() { /*here*/ }\n")
	w := NewWriter(pass, f)
	if key, _, ok := w.NewKey(at(pass, "package p\n\nfunc f() { /*here*/ }\n", "/*here*/")); !ok || key != "crand.Text()" {
		t.Errorf("NewKey = %q, %v; want crand.Text()", key, ok)
	}
	if got, _ := w.DeriveKey("m.ID", "charge", token.NoPos, &ast.SelectorExpr{}); got != `(m.ID + ":charge")` {
		t.Errorf("DeriveKey under a selector = %s", got)
	}
	pass.TypesInfo.FileVersions[f] = "go1.21"
	if _, _, ok := w.NewKey(f.Pos()); ok {
		t.Error("NewKey before Go 1.24 writes crypto/rand.Text")
	}
}

func TestOperand(t *testing.T) {
	if got := Operand(&ast.CallExpr{}, "a + b"); got != "a + b" {
		t.Errorf("as an argument: %s", got)
	}
	if got := Operand(&ast.BinaryExpr{Op: token.MUL}, "a + b"); got != "(a + b)" {
		t.Errorf("under *: %s", got)
	}
	if got := Operand(&ast.BinaryExpr{Op: token.EQL}, "a + b"); got != "a + b" {
		t.Errorf("under ==: %s", got)
	}
}

// TestUnimport checks that a removed expression takes its package's import with it only when
// the file uses the package nowhere else, and that a declaration left empty goes too.
func TestUnimport(t *testing.T) {
	const grouped = `package p

import (
	"fmt"
	"strings"
)

func f() string { return /*a*/strings.ToUpper("x") }

func g() string { return fmt.Sprint(1) }
`
	pass, f := load(t, "p", grouped)
	call := exprAt(t, pass, f, grouped, "/*a*/")
	got := apply(t, pass, grouped, append(Unimport(pass.Fset, pass.TypesInfo, f, call), analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(`"X"`)}))
	want := strings.Replace(strings.Replace(grouped, "\t\"strings\"\n", "", 1), `strings.ToUpper("x")`, `"X"`, 1)
	if got != want {
		t.Errorf("grouped import:\n%s\nwant:\n%s", got, want)
	}

	const twice = `package p

import "strings"

func f() string { return /*a*/strings.ToUpper("x") }

func g() string { return strings.ToLower("Y") }
`
	pass, f = load(t, "p", twice)
	call = exprAt(t, pass, f, twice, "/*a*/")
	if edits := Unimport(pass.Fset, pass.TypesInfo, f, call); len(edits) != 0 {
		t.Errorf("the package is used elsewhere, but Unimport deletes: %v", edits)
	}

	const single = `package p

import "strings"

func f() string { return /*a*/strings.ToUpper("x") }
`
	pass, f = load(t, "p", single)
	call = exprAt(t, pass, f, single, "/*a*/")
	got = apply(t, pass, single, append(Unimport(pass.Fset, pass.TypesInfo, f, call), analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(`"X"`)}))
	want = strings.Replace(strings.Replace(single, "import \"strings\"\n", "", 1), `strings.ToUpper("x")`, `"X"`, 1)
	if got != want {
		t.Errorf("single import:\n%s\nwant:\n%s", got, want)
	}
}

// exprAt returns the call expression that starts right after marker in src.
func exprAt(t *testing.T, pass *analysis.Pass, f *ast.File, src, marker string) ast.Expr {
	t.Helper()
	pos := at(pass, src, marker) + token.Pos(len(marker))
	var found ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c.Pos() == pos && found == nil {
			found = c
		}
		return found == nil
	})
	if found == nil {
		t.Fatalf("no call after %s", marker)
	}
	return found
}
