package edit

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// Free reports whether a variable named name can be declared at pos without clashing with or
// shadowing anything: the name resolves to nothing there but, at most, a predeclared
// identifier.
func Free(pkg *types.Package, name string, pos token.Pos) bool {
	scope := pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent(name, pos)
	return obj == nil || obj.Parent() == types.Universe
}

// FreshName returns base, or base2, base3..., a name that is Free where stmt stands and is not
// written inside stmt: a variable declared just before stmt with it neither clashes nor
// shadows.
func FreshName(pkg *types.Package, stmt ast.Stmt, base string) string {
	used := func(name string) bool {
		if !Free(pkg, name, stmt.Pos()) {
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

// Movable reports whether the code of n, written at pos instead of where it is, means the
// same: every identifier it uses resolves there to the object it uses now.
func Movable(info *types.Info, pkg *types.Package, n ast.Node, pos token.Pos) bool {
	scope := pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	ok := true
	var visit func(x ast.Node) bool
	visit = func(x ast.Node) bool {
		if !ok {
			return false
		}
		if sel, isSel := x.(*ast.SelectorExpr); isSel {
			ast.Inspect(sel.X, visit) // a field, method or package member is not looked up
			return false
		}
		ok = sameAt(info, scope, x, pos)
		return ok
	}
	ast.Inspect(n, visit)
	return ok
}

func sameAt(info *types.Info, scope *types.Scope, n ast.Node, pos token.Pos) bool {
	id, isID := n.(*ast.Ident)
	if !isID {
		return true
	}
	obj := info.Uses[id]
	if obj == nil {
		return true // a definition, a blank, a label
	}
	if v, ok := obj.(*types.Var); ok && v.IsField() {
		return true // an embedded field's promotion or a struct literal's key
	}
	_, at := scope.LookupParent(id.Name, pos)
	return at == obj
}
