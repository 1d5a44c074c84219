package keyinloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

// fix moves the key's creation before the scope's statement: the whole statement when the
// generator call is its value (key := uuid.NewString()), or the call alone into a new
// variable. It gives up when the moved code uses something the scope declares or changes.
func (c *checker) fix(call inspector.Cursor, s *retryscope.Scope) (analysis.SuggestedFix, bool) {
	if s.Stmt == nil || !s.Contains(call.Node().Pos()) {
		return analysis.SuggestedFix{}, false
	}
	if s.Kind == retryscope.Callback {
		// Only a function literal written in the helper call's statement: a key declared
		// before that statement is then in scope inside it.
		if _, ok := s.Body.(*ast.FuncLit); !ok || !contains(s.Stmt, s.Body) {
			return analysis.SuggestedFix{}, false
		}
	}
	// The generator must be in the scope's own function (the callback's, for a callback), not
	// in a closure inside it.
	fnCur, ok := firstEnclosing(call, (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil))
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	if s.Kind == retryscope.Callback && fnCur.Node() != s.Body ||
		s.Kind != retryscope.Callback && !contains(fnCur.Node(), s.Stmt) {
		return analysis.SuggestedFix{}, false
	}
	stmtCur, ok := syntax.EnclosingStmt(call)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	stmt := stmtCur.Node().(ast.Stmt)
	file := syntax.File(c.pass, s.Stmt.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	src, _ := c.pass.ReadFile(c.pass.Fset.File(file.Pos()).Name())
	fset := c.pass.Fset
	expr := call.Node().(*ast.CallExpr)

	msg := "Move key creation before the retry " + noun(s)
	if v, ok := c.defines(stmt, expr); ok && c.movable(stmt, s, v) && c.pure(valueOf(stmt), expr) &&
		edit.Movable(c.pass.TypesInfo, c.pass.Pkg, stmt, s.Stmt.Pos()) {
		if text, del, ok := edit.CutStmt(fset, stmt, src); ok {
			return analysis.SuggestedFix{
				Message:   msg,
				TextEdits: []analysis.TextEdit{edit.InsertBefore(fset, s.Stmt.Pos(), text), del},
			}, true
		}
	}
	// Hoist the call alone into a new variable.
	if c.usesScopeState(expr, s) || !edit.Movable(c.pass.TypesInfo, c.pass.Pkg, expr, s.Stmt.Pos()) {
		return analysis.SuggestedFix{}, false
	}
	if tv, ok := c.pass.TypesInfo.Types[expr]; !ok || tv.Type == nil {
		return analysis.SuggestedFix{}, false
	} else if _, isTuple := tv.Type.(*types.Tuple); isTuple {
		return analysis.SuggestedFix{}, false
	}
	text, ok := edit.Source(c.pass, expr)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	name := edit.FreshName(c.pass.Pkg, s.Stmt, "idempotencyKey")
	return analysis.SuggestedFix{
		Message: msg,
		TextEdits: []analysis.TextEdit{
			edit.InsertBefore(fset, s.Stmt.Pos(), name+" := "+text),
			{Pos: expr.Pos(), End: expr.End(), NewText: []byte(name)},
		},
	}, true
}

// valueOf returns the value expression of an assignment or variable declaration.
func valueOf(stmt ast.Stmt) ast.Expr {
	switch st := stmt.(type) {
	case *ast.AssignStmt:
		return st.Rhs[0]
	case *ast.DeclStmt:
		return st.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values[0]
	}
	return nil
}

// pure reports whether e, apart from the generator call gen, only computes: literals,
// conversions, formatting, string functions, and methods of the fresh value (.String()).
// Moving such a statement out of the loop changes nothing but the key.
func (c *checker) pure(e ast.Expr, gen *ast.CallExpr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		call, isCall := n.(*ast.CallExpr)
		if !ok || !isCall || call == gen {
			return ok
		}
		if tv, found := c.pass.TypesInfo.Types[call.Fun]; found && (tv.IsType() || tv.IsBuiltin()) {
			return true
		}
		fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		switch {
		case fn == nil:
			ok = false
		case flow.Computes(flow.ID(fn)):
		case fn.Name() == "String" || fn.Name() == "Must":
			// aws.String, stripe.String, uuid.Must, and .String() of the value
		default:
			// A method of the fresh value (key.Hex(), id.Bytes()).
			sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !isSel || !contains(sel.X, gen) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

func firstEnclosing(cur inspector.Cursor, types ...ast.Node) (inspector.Cursor, bool) {
	for c := range cur.Enclosing(types...) {
		return c, true
	}
	return inspector.Cursor{}, false
}

func noun(s *retryscope.Scope) string {
	if s.Kind == retryscope.Callback {
		return "call"
	}
	return "loop"
}

// defines reports whether stmt is "v := call", "v = call" or "var v = call", with a single
// variable, returning that variable.
func (c *checker) defines(stmt ast.Stmt, call *ast.CallExpr) ([]*types.Var, bool) {
	var lhs []ast.Expr
	var rhs []ast.Expr
	switch st := stmt.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE && st.Tok != token.ASSIGN {
			return nil, false
		}
		lhs, rhs = st.Lhs, st.Rhs
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return nil, false
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		for _, n := range vs.Names {
			lhs = append(lhs, n)
		}
		rhs = vs.Values
	default:
		return nil, false
	}
	if len(rhs) != 1 || !contains(rhs[0], call) {
		return nil, false
	}
	// One variable, and blanks: key := ..., id, _ := uuid.NewRandom().
	var vars []*types.Var
	for _, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return nil, false
		}
		if id.Name == "_" {
			continue
		}
		v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
		if !ok {
			return nil, false
		}
		vars = append(vars, v)
	}
	if len(vars) != 1 {
		return nil, false
	}
	return vars, true
}

func contains(outer, inner ast.Node) bool {
	return outer.Pos() <= inner.Pos() && inner.End() <= outer.End()
}

// movable reports whether stmt can run before the scope's statement: what it uses is
// declared before it and not changed inside it, the variable it defines is not assigned
// again in the scope, and its name means nothing else there.
func (c *checker) movable(stmt ast.Stmt, s *retryscope.Scope, vars []*types.Var) bool {
	assign, isAssign := stmt.(*ast.AssignStmt)
	var value ast.Node = stmt
	if isAssign {
		value = assign.Rhs[0]
	} else if ds, ok := stmt.(*ast.DeclStmt); ok {
		value = ds.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values[0]
	}
	if c.usesScopeState(value, s) {
		return false
	}
	for _, v := range vars {
		if c.assignedIn(v, s.Stmt, stmt) {
			return false
		}
		defining := !isAssign || assign.Tok == token.DEFINE
		if defining && !edit.Free(c.pass.Pkg, v.Name(), s.Stmt.Pos()) {
			return false
		}
		if !defining && v.Pos() >= s.Stmt.Pos() {
			return false // assigned a variable declared in the scope
		}
	}
	return true
}

// usesScopeState reports whether n refers to a variable declared in the scope's statement, or
// to one the scope assigns.
func (c *checker) usesScopeState(n ast.Node, s *retryscope.Scope) bool {
	bad := false
	ast.Inspect(n, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !ok || bad {
			return !bad
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || v.Parent() == nil && !v.IsField() {
			return true
		}
		if v.IsField() {
			return true
		}
		if s.Stmt.Pos() <= v.Pos() && v.Pos() < s.Stmt.End() || c.assignedIn(v, s.Stmt, nil) {
			bad = true
		}
		return true
	})
	return bad
}

// assignedIn reports whether v is assigned (or its address taken) inside node, other than by
// the statement except.
func (c *checker) assignedIn(v *types.Var, node ast.Node, except ast.Stmt) bool {
	found := false
	ast.Inspect(node, func(x ast.Node) bool {
		if found || x == except {
			return false
		}
		switch x := x.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && c.pass.TypesInfo.ObjectOf(id) == v {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && c.pass.TypesInfo.ObjectOf(id) == v {
				found = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && x.Op == token.AND && c.pass.TypesInfo.ObjectOf(id) == v {
				found = true
			}
		}
		return !found
	})
	return found
}
