// Package edit builds the text edits of idemlint's suggested fixes, aware of the scope at each
// edit: importing a package under a name that means it where it is used (imports.go), choosing
// a fresh variable name (names.go), adding a field to a composite literal (fields.go), and
// moving or inserting statements at their indentation (this file).
package edit

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// InsertBefore returns an edit that inserts stmt (one or more lines of Go, without trailing
// newline) on its own line before the statement at pos, at the same indentation.
func InsertBefore(fset *token.FileSet, pos token.Pos, stmt string) analysis.TextEdit {
	indent := strings.Repeat("\t", max(fset.Position(pos).Column-1, 0))
	lines := strings.Split(stmt, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = indent + lines[i]
	}
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(strings.Join(lines, "\n") + "\n" + indent)}
}

// CutStmt returns the text of stmt with its trailing line comment, if any, and the edit that
// removes them, with the line itself when nothing else stands on it. It returns ok false
// when src is not the statement's file.
func CutStmt(fset *token.FileSet, stmt ast.Stmt, src []byte) (text string, del analysis.TextEdit, ok bool) {
	tf := fset.File(stmt.Pos())
	if tf == nil || src == nil || tf.Size() != len(src) {
		return "", analysis.TextEdit{}, false
	}
	so, eo := tf.Offset(stmt.Pos()), tf.Offset(stmt.End())
	// A trailing // comment goes with the statement.
	te := eo
	for te < len(src) && (src[te] == ' ' || src[te] == '\t') {
		te++
	}
	if te+1 < len(src) && src[te] == '/' && src[te+1] == '/' {
		for te < len(src) && src[te] != '\n' {
			te++
		}
		eo = te
	}
	ls := so
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	// Later lines lose the statement's own indentation; InsertBefore gives them the new one.
	text = strings.ReplaceAll(string(src[so:eo]), "\n"+string(src[ls:so]), "\n")
	le := eo
	for le < len(src) && (src[le] == ' ' || src[le] == '\t' || src[le] == '\r') {
		le++
	}
	if (ls == 0 || src[ls-1] == '\n') && le < len(src) && src[le] == '\n' {
		so, eo = ls, le+1
	}
	return text, analysis.TextEdit{Pos: tf.Pos(so), End: tf.Pos(eo)}, true
}

// Source returns the text of n as written in its file (read through the pass, which caches
// it), or as printed when the file cannot be read.
func Source(pass *analysis.Pass, n ast.Node) (string, bool) {
	if tf := pass.Fset.File(n.Pos()); tf != nil {
		if src, err := pass.ReadFile(tf.Name()); err == nil && tf.Size() == len(src) {
			lo, hi := tf.Offset(n.Pos()), tf.Offset(n.End())
			if 0 <= lo && lo <= hi && hi <= len(src) {
				return string(src[lo:hi]), true
			}
		}
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, pass.Fset, n); err != nil {
		return "", false
	}
	return buf.String(), true
}

// Operand returns text, an expression of lower precedence than a primary one (a + b), as
// written in place of an expression whose parent node is parent: in parentheses where parent
// applies an operator that binds tighter (a selector, an index, a slice, a unary operator, a
// binary operator above +).
func Operand(parent ast.Node, text string) string {
	switch p := parent.(type) {
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr, *ast.StarExpr, *ast.UnaryExpr, *ast.TypeAssertExpr:
		return "(" + text + ")"
	case *ast.BinaryExpr:
		if p.Op.Precedence() > token.ADD.Precedence() {
			return "(" + text + ")"
		}
	}
	return text
}
