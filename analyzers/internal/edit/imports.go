package edit

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"path"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Import returns the name by which the code at every position of at refers to the package
// importPath, and the edits (possibly none) that import it into file.
//
// An import of the package already in the file is reused when its name means that package at
// every position (no local declaration shadows it there). Otherwise the package is imported
// again under the first of names (default: its package name), then name2, name3..., that
// means nothing at those positions, not even a predeclared identifier, so that the new import
// neither clashes with a declaration of the file or package nor hides one; and that nothing in
// the file declares, so that every fix in the file picks the same name and their imports
// coalesce. The name is empty when importPath is the package itself (see Qualify).
func Import(info *types.Info, pkg *types.Package, file *ast.File, importPath string, names []string, at ...token.Pos) (name string, edits []analysis.TextEdit) {
	if importPath == pkg.Path() {
		return "", nil
	}
	for _, spec := range file.Imports {
		if p, err := strconv.Unquote(spec.Path.Value); err != nil || p != importPath {
			continue
		}
		pn := importedAs(info, spec)
		if pn != nil && pn.Name() != "_" && pn.Name() != "." && resolvesTo(pkg, pn.Name(), pn, at) {
			return pn.Name(), nil
		}
	}
	real := packageName(pkg, importPath)
	if len(names) == 0 {
		names = []string{real}
	}
	free := func(n string) bool { return resolvesTo(pkg, n, nil, at) && !declaredIn(info, file, n) }
	name = ""
	for _, n := range names {
		if free(n) {
			name = n
			break
		}
	}
	for i := 2; name == ""; i++ {
		if n := fmt.Sprintf("%s%d", names[0], i); free(n) {
			name = n
		}
	}
	spec := strconv.Quote(importPath)
	if name != real {
		spec = name + " " + spec
	}
	return name, []analysis.TextEdit{importEdit(file, spec)}
}

// Qualify returns the reference to member of the package that Import named name.
func Qualify(name, member string) string {
	if name == "" {
		return member
	}
	return name + "." + member
}

// declaredIn reports whether file declares name anywhere.
func declaredIn(info *types.Info, file *ast.File, name string) bool {
	found := false
	ast.Inspect(file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name && info.Defs[id] != nil {
			found = true
		}
		return !found
	})
	return found
}

// importedAs returns the package name an import spec declares.
func importedAs(info *types.Info, spec *ast.ImportSpec) *types.PkgName {
	if spec.Name != nil {
		pn, _ := info.Defs[spec.Name].(*types.PkgName)
		return pn
	}
	pn, _ := info.Implicits[spec].(*types.PkgName)
	return pn
}

// resolvesTo reports whether name denotes want at every position of at (want nil: denotes
// nothing at all, the universe included).
func resolvesTo(pkg *types.Package, name string, want types.Object, at []token.Pos) bool {
	for _, pos := range at {
		scope := pkg.Scope().Innermost(pos)
		if scope == nil {
			return false
		}
		if _, obj := scope.LookupParent(name, pos); obj != want {
			return false
		}
	}
	if want == nil {
		// A file-scope name must not also be declared in the package block (in any file).
		return pkg.Scope().Lookup(name) == nil
	}
	return true
}

// importEdit inserts spec into the last parenthesised import declaration of file, or as a
// declaration of its own after the last import (or the package clause). The cgo pseudo-import
// keeps its declaration to itself.
func importEdit(file *ast.File, spec string) analysis.TextEdit {
	var last *ast.GenDecl
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if len(gd.Specs) == 1 && gd.Specs[0].(*ast.ImportSpec).Path.Value == `"C"` {
			if last == nil {
				last = gd // after it, unless another declaration follows
			}
			continue
		}
		last = gd
	}
	switch {
	case last != nil && last.Rparen.IsValid() && !isCgo(last):
		// A standard library package joins the standard library's group in order, where
		// goimports would put it (gofmt sorts a group); anything else goes last.
		if std(spec) {
			path := spec
			if i := strings.Index(spec, `"`); i > 0 {
				path = spec[i:] // name "path": the path decides the order
			}
			var after *ast.ImportSpec
			for i, sp := range last.Specs {
				is := sp.(*ast.ImportSpec)
				if !std(is.Path.Value) {
					break
				}
				if is.Path.Value > path {
					return analysis.TextEdit{Pos: is.Pos(), End: is.Pos(), NewText: []byte(spec + "\n\t")}
				}
				if i+1 == len(last.Specs) {
					after = nil // only standard imports: the end of the list is right
					break
				}
				after = is
			}
			if after != nil {
				return analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte("\n\t" + spec)}
			}
		}
		return analysis.TextEdit{Pos: last.Rparen, End: last.Rparen, NewText: []byte("\t" + spec + "\n")}
	case last != nil:
		return analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte("\n\nimport " + spec)}
	default:
		end := file.Name.End()
		return analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n\nimport " + spec)}
	}
}

func isCgo(gd *ast.GenDecl) bool {
	for _, s := range gd.Specs {
		if s.(*ast.ImportSpec).Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// packageName returns the name the package at importPath declares: known when pkg imports it,
// guessed from the path otherwise (its last element, without a major version suffix or a
// "go-" prefix).
func packageName(pkg *types.Package, importPath string) string {
	for _, imp := range pkg.Imports() {
		if imp.Path() == importPath {
			return imp.Name()
		}
	}
	base := path.Base(importPath)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(importPath))
	}
	base = strings.TrimPrefix(base, "go-")
	return strings.NewReplacer("-", "", ".", "").Replace(base)
}

// RuntimeModule is the module of the runtime that idemlint's fixes can point to.
const RuntimeModule = "github.com/idemlint/idemlint"

// HasRuntime reports whether the package can import the runtime's packages as it is: it is
// part of idemlint's module, or it imports a package of that module (directly, or through the
// imports its dependencies' export data records), so the module is required and a fix that
// imports another of its packages builds. Otherwise fixes use the standard library.
func HasRuntime(pass *analysis.Pass) bool {
	if pass.Module != nil && pass.Module.Path == RuntimeModule {
		return true
	}
	seen := make(map[*types.Package]bool)
	var walk func(p *types.Package) bool
	walk = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		if p.Path() == RuntimeModule || strings.HasPrefix(p.Path(), RuntimeModule+"/") {
			return true
		}
		for _, imp := range p.Imports() {
			if walk(imp) {
				return true
			}
		}
		return false
	}
	return walk(pass.Pkg)
}

// GoAtLeast reports whether the file at pos may use the standard library of Go release v
// ("go1.24"): its Go version (from go.mod or a //go:build line) is at least v, or unknown.
func GoAtLeast(pass *analysis.Pass, file *ast.File, v string) bool {
	fv := pass.TypesInfo.FileVersions[file]
	if fv == "" && pass.Module != nil && pass.Module.GoVersion != "" {
		fv = "go" + pass.Module.GoVersion
	}
	return fv == "" || version.Compare(fv, v) >= 0
}

// std reports whether an import spec's path ("math/rand/v2", quoted, with or without a name
// before it) is of the standard library: its first element has no dot.
func std(spec string) bool {
	if i := strings.IndexByte(spec, '"'); i >= 0 {
		spec = spec[i+1:]
	}
	first, _, _ := strings.Cut(strings.Trim(spec, `"`), "/")
	return !strings.Contains(first, ".")
}

// Unimport returns the edits that delete the imports of the packages that removed names
// (uuid in uuid.NewString(), which a fix replaces) when the file uses them nowhere else: a
// fix that leaves an import unused does not build. The whole line of the import goes; an
// import declaration left empty goes with it.
func Unimport(fset *token.FileSet, info *types.Info, file *ast.File, removed ast.Node) []analysis.TextEdit {
	inside := make(map[*types.PkgName]bool)
	ast.Inspect(removed, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := info.Uses[id].(*types.PkgName); ok {
				inside[pn] = true
			}
		}
		return true
	})
	if len(inside) == 0 {
		return nil
	}
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || n == removed {
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := info.Uses[id].(*types.PkgName); ok && inside[pn] {
				delete(inside, pn) // used elsewhere: it stays
			}
		}
		return true
	})
	tf := fset.File(file.Pos())
	if tf == nil {
		return nil
	}
	line := func(n ast.Node) analysis.TextEdit {
		first, last := tf.Line(n.Pos()), tf.Line(n.End())
		end := tf.Pos(tf.Size())
		if last < tf.LineCount() {
			end = tf.LineStart(last + 1)
		}
		return analysis.TextEdit{Pos: tf.LineStart(first), End: end}
	}
	var edits []analysis.TextEdit
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		var gone []ast.Spec
		for _, spec := range gd.Specs {
			if pn := importedAs(info, spec.(*ast.ImportSpec)); pn != nil && inside[pn] {
				gone = append(gone, spec)
			}
		}
		switch {
		case len(gone) == 0:
		case len(gone) == len(gd.Specs):
			edits = append(edits, line(gd))
		default:
			for _, spec := range gone {
				edits = append(edits, line(spec))
			}
		}
	}
	return edits
}
