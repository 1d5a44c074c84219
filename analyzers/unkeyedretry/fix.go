package unkeyedretry

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

const (
	header = `"Idempotency-Key"`
)

// fix makes a key once, before the retry scope, and sets it on the request right after the
// request is made (and its error checked), when the request is made in view: an
// http.NewRequest* or retryablehttp.NewRequest* assigned to a variable, or a resty chain
// starting at R(). A request made before the scope, or retried by the client itself, gets the
// key where it is made.
func (c *checker) fix(o *op, s *retryscope.Scope) (analysis.SuggestedFix, bool) {
	if o.send == nil {
		return analysis.SuggestedFix{}, false
	}
	file := syntax.File(c.pass, o.call.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	var where inspector.Cursor // the call that makes the request
	var chain *ast.CallExpr    // resty's R() call, when the key goes on the chain
	if o.send.Made != nil {
		cur, ok := c.calls.At(o.send.Made.Pos())
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		where = cur
	} else {
		cur, ok := c.calls.At(o.call.Pos())
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		if chain = restyR(c.pass.TypesInfo, cur.Node().(*ast.CallExpr)); chain == nil {
			return analysis.SuggestedFix{}, false
		}
		where = cur
	}
	w := edit.NewWriter(c.pass, file)
	var edits []analysis.TextEdit
	// The key: made before the scope when the request is made on every attempt, inline
	// otherwise (keyAt writes it where it is used).
	keyAt := func(pos token.Pos) (string, bool) {
		gen, more, ok := w.NewKey(pos)
		edits = append(edits, more...)
		return gen, ok
	}
	if s.Kind != retryscope.Client && s.Contains(where.Node().Pos()) {
		if !c.beforeScope(where, s) {
			return analysis.SuggestedFix{}, false
		}
		gen, ok := keyAt(s.Stmt.Pos())
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		key := edit.FreshName(c.pass.Pkg, s.Stmt, "idempotencyKey")
		edits = append(edits, edit.InsertBefore(c.pass.Fset, s.Stmt.Pos(), key+" := "+gen))
		keyAt = func(token.Pos) (string, bool) { return key, true }
	}

	if chain != nil {
		key, ok := keyAt(chain.End())
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		edits = append(edits, analysis.TextEdit{Pos: chain.End(), End: chain.End(), NewText: fmt.Appendf(nil, ".SetHeader(%s, %s)", header, key)})
		return analysis.SuggestedFix{Message: "Send an idempotency key made once before the retries", TextEdits: edits}, true
	}
	stmtCur, ok := syntax.EnclosingStmt(where)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	stmt := stmtCur.Node()
	if ls, ok := stmt.(*ast.LabeledStmt); ok {
		stmt = ls.Stmt // again: req, err := http.NewRequest(...)
	}
	assign, ok := stmt.(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 || ast.Unparen(assign.Rhs[0]) != where.Node() {
		return analysis.SuggestedFix{}, false
	}
	req, ok := assign.Lhs[0].(*ast.Ident)
	if !ok || req.Name == "_" {
		return analysis.SuggestedFix{}, false
	}
	anchor := ast.Stmt(assign)
	if next := nextStmt(stmtCur); next != nil && checksErr(next, assign.Lhs[1]) {
		anchor = next
	}
	key, ok := keyAt(anchor.End())
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	indent := strings.Repeat("\t", max(c.pass.Fset.Position(assign.Pos()).Column-1, 0))
	set := fmt.Sprintf("\n%s%s.Header.Set(%s, %s)", indent, req.Name, header, key)
	edits = append(edits, analysis.TextEdit{Pos: anchor.End(), End: anchor.End(), NewText: []byte(set)})
	return analysis.SuggestedFix{Message: "Send an idempotency key made once before the retries", TextEdits: edits}, true
}

// beforeScope reports whether a statement inserted before the scope's statement is in scope
// where the request is made: the request is made in the function holding that statement, or,
// for a callback, directly in a function literal written in it.
func (c *checker) beforeScope(where inspector.Cursor, s *retryscope.Scope) bool {
	if s.Stmt == nil {
		return false
	}
	var fn ast.Node
	for cur := range where.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		fn = cur.Node()
		break
	}
	if fn == nil {
		return false
	}
	if s.Kind == retryscope.Callback {
		lit, ok := s.Body.(*ast.FuncLit)
		return ok && fn == lit && within(s.Stmt, lit)
	}
	return within(fn, s.Stmt)
}

func within(outer, inner ast.Node) bool {
	return outer.Pos() <= inner.Pos() && inner.End() <= outer.End()
}

// nextStmt returns the statement after cur's in its block, or nil.
func nextStmt(cur inspector.Cursor) ast.Stmt {
	var list []ast.Stmt
	switch p := cur.Parent().Node().(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	for i, st := range list {
		if st == cur.Node() && i+1 < len(list) {
			return list[i+1]
		}
	}
	return nil
}

// checksErr reports whether stmt is an if statement whose condition uses the error variable
// errExpr.
func checksErr(stmt ast.Stmt, errExpr ast.Expr) bool {
	ifs, ok := stmt.(*ast.IfStmt)
	errID, isID := errExpr.(*ast.Ident)
	if !ok || !isID || errID.Name == "_" || ifs.Init != nil {
		return false
	}
	found := false
	ast.Inspect(ifs.Cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == errID.Name {
			found = true
		}
		return !found
	})
	return found
}

// restyR returns the R() call that a resty request chain starts from, when it is written in
// the chain: client.R().SetBody(b).Post(url).
func restyR(info *types.Info, call *ast.CallExpr) *ast.CallExpr {
	x := ast.Expr(call)
	for range 16 {
		ce, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			return nil
		}
		sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if sel.Sel.Name == "R" && len(ce.Args) == 0 {
			if t := info.TypeOf(ce); t != nil && strings.Contains(t.String(), "resty") {
				return ce
			}
			return nil
		}
		x = sel.X
	}
	return nil
}
