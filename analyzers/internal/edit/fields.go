package edit

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// AddField returns the edit that adds field ("Timeout: 30 * time.Second") to the composite
// literal lit, written in src (its file's content): inside empty braces, after the last element
// when it shares the closing brace's line, or on a line of its own before the closing brace,
// indented like the last element. It returns false for a literal with positional elements.
func AddField(fset *token.FileSet, src []byte, lit *ast.CompositeLit, field string) (analysis.TextEdit, bool) {
	for _, e := range lit.Elts {
		if _, ok := e.(*ast.KeyValueExpr); !ok {
			return analysis.TextEdit{}, false
		}
	}
	tf := fset.File(lit.Pos())
	if tf == nil {
		return analysis.TextEdit{}, false
	}
	if len(lit.Elts) == 0 {
		return analysis.TextEdit{Pos: lit.Rbrace, End: lit.Rbrace, NewText: []byte(field)}, true
	}
	last := lit.Elts[len(lit.Elts)-1]
	if tf.Line(last.End()) == tf.Line(lit.Rbrace) {
		return analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(", " + field)}, true
	}
	if src == nil || tf.Size() != len(src) {
		return analysis.TextEdit{}, false
	}
	// One element per line: the new one goes on a line of its own before the closing brace's.
	so := tf.Offset(tf.LineStart(tf.Line(last.Pos())))
	eo := so
	for eo < len(src) && (src[eo] == '\t' || src[eo] == ' ') {
		eo++
	}
	at := tf.LineStart(tf.Line(lit.Rbrace))
	if strings.TrimSpace(string(src[tf.Offset(at):tf.Offset(lit.Rbrace)])) != "" {
		return analysis.TextEdit{}, false // something else stands before the brace
	}
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte(string(src[so:eo]) + field + ",\n")}, true
}

// HasField reports whether the composite literal lit sets the field name.
func HasField(lit *ast.CompositeLit, name string) bool {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return true
			}
		}
	}
	return false
}
