package notimeout

import (
	"fmt"
	"go/ast"
	"go/token"
	"time"

	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/remote"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// The suggested fix: a Timeout added to the http.Client composite literal the calls go through.

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
	for _, e := range lit.Elts {
		if _, ok := e.(*ast.KeyValueExpr); !ok {
			return analysis.SuggestedFix{}, false // positional fields: leave it to a human
		}
	}
	file := syntax.File(c.pass, lit.Pos())
	tf := c.pass.Fset.File(lit.Pos())
	if file == nil || tf == nil {
		return analysis.SuggestedFix{}, false
	}
	timeName, edits := edit.AddImport(c.pass.Fset, c.pass.Pkg, file, "time")
	field := "Timeout: " + Render(time.Duration(Default), timeName)
	switch {
	case len(lit.Elts) == 0:
		edits = append(edits, analysis.TextEdit{Pos: lit.Rbrace, End: lit.Rbrace, NewText: []byte(field)})
	case tf.Line(lit.Elts[len(lit.Elts)-1].End()) == tf.Line(lit.Rbrace):
		last := lit.Elts[len(lit.Elts)-1]
		edits = append(edits, analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(", " + field)})
	default:
		// One field per line: a new line before the closing brace, indented like the last field.
		src, err := c.pass.ReadFile(tf.Name())
		if err != nil || tf.Size() != len(src) {
			return analysis.SuggestedFix{}, false
		}
		last := lit.Elts[len(lit.Elts)-1]
		start := tf.LineStart(tf.Line(last.Pos()))
		so := tf.Offset(start)
		indent := ""
		for i := so; i < len(src) && (src[i] == '\t' || src[i] == ' '); i++ {
			indent += string(src[i])
		}
		at := tf.LineStart(tf.Line(lit.Rbrace))
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(indent + field + ",\n")})
	}
	return analysis.SuggestedFix{
		Message:   "Add Timeout: " + Render(time.Duration(Default), timeName) + " to the client",
		TextEdits: edits,
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

// hasField reports whether the composite literal lit sets the field name.
func hasField(lit *ast.CompositeLit, name string) bool {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return true
			}
		}
	}
	return false
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
