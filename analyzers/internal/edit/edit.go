// Package edit builds the text edits of idemlint's suggested fixes: adding an import and
// inserting a statement before another one at its indentation.
package edit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"path"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// AddImport returns the name by which file refers to the package at importPath, and the edits
// (possibly none) that import it. When the package's default name is taken in the file (by
// another import or by a package-level object), the import gets an alias.
func AddImport(fset *token.FileSet, pkg *types.Package, file *ast.File, importPath string) (name string, edits []analysis.TextEdit) {
	for _, spec := range file.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil || p != importPath {
			continue
		}
		switch {
		case spec.Name == nil:
			return defaultName(importPath), nil
		case spec.Name.Name != "_" && spec.Name.Name != ".":
			return spec.Name.Name, nil
		}
	}
	name = defaultName(importPath)
	alias := ""
	if taken(pkg, file, name) {
		alias = "idem" + name
		for i := 2; taken(pkg, file, alias); i++ {
			alias = fmt.Sprintf("idem%s%d", name, i)
		}
		name = alias
	}
	spec := strconv.Quote(importPath)
	if alias != "" {
		spec = alias + " " + spec
	}
	// Into the last parenthesised import declaration, or as a new declaration after the
	// last import (or the package clause).
	var last *ast.GenDecl
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			last = gd
		}
	}
	switch {
	case last != nil && last.Rparen.IsValid():
		return name, []analysis.TextEdit{{Pos: last.Rparen, End: last.Rparen, NewText: []byte("\t" + spec + "\n")}}
	case last != nil:
		return name, []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte("\n\nimport " + spec)}}
	default:
		end := file.Name.End()
		return name, []analysis.TextEdit{{Pos: end, End: end, NewText: []byte("\n\nimport " + spec)}}
	}
}

// defaultName guesses the package name of importPath: its last element, without a major
// version suffix or a "go-" prefix.
func defaultName(importPath string) string {
	base := path.Base(importPath)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(importPath))
	}
	base = strings.TrimPrefix(base, "go-")
	return strings.NewReplacer("-", "", ".", "").Replace(base)
}

func taken(pkg *types.Package, file *ast.File, name string) bool {
	for _, spec := range file.Imports {
		n := ""
		if spec.Name != nil {
			n = spec.Name.Name
		} else if p, err := strconv.Unquote(spec.Path.Value); err == nil {
			n = defaultName(p)
		}
		if n == name {
			return true
		}
	}
	return pkg != nil && pkg.Scope().Lookup(name) != nil
}

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

// FreshName returns base, or base2, base3..., a name that resolves to nothing (but the
// universe) where stmt stands and is not written inside stmt: a variable declared just before
// stmt with it neither clashes nor shadows.
func FreshName(pkg *types.Package, stmt ast.Stmt, base string) string {
	used := func(name string) bool {
		if sc := pkg.Scope().Innermost(stmt.Pos()); sc == nil {
			return true
		} else if _, obj := sc.LookupParent(name, stmt.Pos()); obj != nil && obj.Parent() != types.Universe {
			return true
		}
		taken := false
		ast.Inspect(stmt, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && id.Name == name {
				taken = true
			}
			return !taken
		})
		return taken
	}
	name := base
	for i := 2; used(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}
