package notimeout

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"time"

	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/remote"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// The suggested fix: a Timeout added to the http.Client composite literal the calls go
// through, or a SetTimeout call to the constructor that makes a resty client.

// literal returns the http.Client composite literal the origin was built from: the literal
// itself, or the one a local variable is declared with (c := http.Client{}).
func (c *checker) literal(o *remote.Origin) (*ast.CompositeLit, bool) {
	if o.Kind != remote.Local || o.Alloc == nil {
		return nil, false
	}
	if o.Alloc.Comment != "complit" {
		return c.declaredWith(o.Pos)
	}
	if c.lits == nil {
		c.lits = make(map[token.Pos]inspector.Cursor)
		for cur := range c.insp.Root().Preorder((*ast.CompositeLit)(nil)) {
			c.lits[cur.Node().(*ast.CompositeLit).Lbrace] = cur
		}
	}
	cur, ok := c.lits[o.Pos]
	if !ok {
		return nil, false
	}
	return cur.Node().(*ast.CompositeLit), true
}

// addTimeout returns the fix that adds a Timeout field to the client literal lit.
func (c *checker) addTimeout(lit *ast.CompositeLit) (analysis.SuggestedFix, bool) {
	file := syntax.File(c.pass, lit.Pos())
	tf := c.pass.Fset.File(lit.Pos())
	if file == nil || tf == nil {
		return analysis.SuggestedFix{}, false
	}
	src, _ := c.pass.ReadFile(tf.Name())
	timeName, edits := edit.Import(c.pass.TypesInfo, c.pass.Pkg, file, "time", nil, lit.Rbrace)
	field := "Timeout: " + Render(time.Duration(Default), timeName)
	add, ok := edit.AddField(c.pass.Fset, src, lit, field)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{
		Message:   "Add " + field + " to the client",
		TextEdits: append(edits, add),
	}, true
}

// constructorCall returns the call of a library constructor that made the client o (resty.New())
// when the client's type takes its timeout from a setter.
func (c *checker) constructorCall(o *remote.Origin) (*ast.CallExpr, bool) {
	if o.Kind != remote.Constructor || o.Type != knowledge.RestyClient.Display || !o.Pos.IsValid() {
		return nil, false
	}
	cur, ok := c.calls.At(o.Pos)
	if !ok {
		return nil, false
	}
	call := cur.Node().(*ast.CallExpr)
	// The library's constructor itself (resty.New()), whose one result takes the setter; not
	// another package's function that returns one among other results.
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != knowledge.RestyClient.Pkg || fn.Signature().Results().Len() != 1 {
		return nil, false
	}
	return call, true
}

// addSetTimeout returns the fix that calls the client's timeout setter on what call returns:
// resty.New() becomes resty.New().SetTimeout(30 * time.Second).
func (c *checker) addSetTimeout(call *ast.CallExpr) (analysis.SuggestedFix, bool) {
	file := syntax.File(c.pass, call.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	timeName, edits := edit.Import(c.pass.TypesInfo, c.pass.Pkg, file, "time", nil, call.End())
	set := "." + knowledge.RestyClient.Setters[0] + "(" + Render(time.Duration(Default), timeName) + ")"
	return analysis.SuggestedFix{
		Message:   "Call " + set[1:] + " on the client",
		TextEdits: append(edits, analysis.TextEdit{Pos: call.End(), End: call.End(), NewText: []byte(set)}),
	}, true
}

// declaredWith returns the composite literal that the variable declared at pos is
// initialised with.
func (c *checker) declaredWith(pos token.Pos) (*ast.CompositeLit, bool) {
	lit := func(e ast.Expr) (*ast.CompositeLit, bool) {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		cl, ok := e.(*ast.CompositeLit)
		return cl, ok
	}
	for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE || len(n.Lhs) != len(n.Rhs) || pos < n.Pos() || pos >= n.End() {
				continue
			}
			for i, l := range n.Lhs {
				if l.Pos() == pos {
					return lit(n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) != len(n.Values) || pos < n.Pos() || pos >= n.End() {
				continue
			}
			for i, name := range n.Names {
				if name.Pos() == pos {
					return lit(n.Values[i])
				}
			}
		}
	}
	return nil, false
}

// Render writes d as idiomatic Go using the time package named pkg: "30 * time.Second",
// "500 * time.Millisecond", "time.Minute".
func Render(d time.Duration, pkg string) string {
	units := []struct {
		d    time.Duration
		name string
	}{
		{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"},
		{time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}, {time.Nanosecond, "Nanosecond"},
	}
	for _, u := range units {
		if d%u.d != 0 {
			continue
		}
		if n := d / u.d; n != 1 {
			return fmt.Sprintf("%d * %s.%s", n, pkg, u.name)
		}
		return pkg + "." + u.name
	}
	return fmt.Sprintf("%d", d)
}
