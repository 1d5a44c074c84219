package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
)

// This file finds the loops that handle one delivery of a framework per iteration.

// deliveryLoops returns the scopes of fn's loops that handle one delivery per iteration: a
// range over deliveries, a loop that receives one from a channel (also in a select) or from
// a framework's receive call. The scope is the loop's body; nothing before the loop belongs
// to one delivery, so it has no Stmt.
func (st *state) deliveryLoops(fn *ssa.Function) []*Scope {
	var body *ast.BlockStmt
	switch syn := flow.Syntax(fn).(type) {
	case *ast.FuncDecl:
		body = syn.Body
	case *ast.FuncLit:
		body = syn.Body
	}
	if body == nil {
		return nil
	}
	type found struct {
		loop ast.Stmt
		fw   *framework
		vars []*types.Var
	}
	var founds []*found
	byLoop := make(map[ast.Stmt]*found)
	note := func(loop ast.Stmt, fw *framework, v *types.Var) {
		if loop == nil {
			return
		}
		f := byLoop[loop]
		if f == nil {
			f = &found{loop: loop, fw: fw}
			byLoop[loop] = f
			founds = append(founds, f)
		}
		if v != nil && f.fw == fw {
			f.vars = append(f.vars, v)
		}
	}
	info := st.pass.TypesInfo
	var stack []ast.Stmt // enclosing loops
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		ast.Inspect(n, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if x == n {
					return true
				}
				if r, ok := x.(*ast.RangeStmt); ok {
					if fw, v := st.rangeDelivery(r); fw != nil {
						note(r, fw, v)
					}
				}
				stack = append(stack, x.(ast.Stmt))
				walk(x)
				stack = stack[:len(stack)-1]
				return false
			case *ast.AssignStmt:
				if len(x.Rhs) == 1 && len(stack) > 0 {
					if fw := st.receivedDelivery(x.Rhs[0]); fw != nil {
						var v *types.Var
						if id, ok := x.Lhs[0].(*ast.Ident); ok {
							v, _ = info.ObjectOf(id).(*types.Var)
						}
						note(stack[len(stack)-1], fw, v)
					}
				}
			case *ast.UnaryExpr, *ast.CallExpr:
				if len(stack) > 0 {
					if fw := st.receivedDelivery(x.(ast.Expr)); fw != nil {
						note(stack[len(stack)-1], fw, nil)
					}
				}
			}
			return true
		})
	}
	walk(body)

	var out []*Scope
	for _, f := range founds {
		l := ssaLoop(fn, f.loop)
		if l == nil || !f.fw.requeued(fn, l.Blocks(fn)) {
			continue
		}
		s := &Scope{Kind: f.fw.kind, Fn: fn, Loop: l, Node: f.loop, Body: f.loop, To: f.loop.End(), at: fn,
			Framework: f.fw.Name, Noun: f.fw.Noun}
		switch loop := f.loop.(type) {
		case *ast.ForStmt:
			s.From = loop.Body.Pos()
		case *ast.RangeStmt:
			s.From = loop.Body.Pos()
		}
		(&frameworkRun{fw: f.fw}).summarise(s)
		s.Calls = slices.Collect(flow.BlockCalls(l.Blocks(fn)))
		s.Identity = st.identity(f.fw, fn, f.vars)
		out = append(out, s)
	}
	return out
}

// rangeDelivery returns the framework whose deliveries r ranges over (a slice, array or
// channel of them), and the variable holding each one.
func (st *state) rangeDelivery(r *ast.RangeStmt) (*framework, *types.Var) {
	t := st.pass.TypesInfo.TypeOf(r.X)
	if t == nil {
		return nil, nil
	}
	var elem types.Type
	varExpr := r.Value
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	case *types.Chan:
		elem, varExpr = u.Elem(), r.Key
	default:
		return nil, nil
	}
	for _, fw := range frameworks {
		if fw.delivers(elem) {
			var v *types.Var
			if id, ok := varExpr.(*ast.Ident); ok {
				v, _ = st.pass.TypesInfo.ObjectOf(id).(*types.Var)
			}
			return fw, v
		}
	}
	return nil, nil
}

// receivedDelivery returns the framework whose delivery e receives: from a channel of them,
// or by a framework's receive call.
func (st *state) receivedDelivery(e ast.Expr) *framework {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op != token.ARROW {
			return nil
		}
		t := st.pass.TypesInfo.TypeOf(e.X)
		if t == nil {
			return nil
		}
		ch, ok := t.Underlying().(*types.Chan)
		if !ok {
			return nil
		}
		for _, fw := range frameworks {
			if fw.delivers(ch.Elem()) {
				return fw
			}
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(st.pass.TypesInfo, e).(*types.Func)
		id := flow.ID(fn)
		for _, fw := range frameworks {
			if fw.lib.has(id.Pkg) && matchEntry(fw.Receives, id) != nil {
				return fw
			}
		}
	}
	return nil
}

// ssaLoop returns the natural loop of fn that the loop statement gives rise to: the largest
// one whose instructions all lie in the statement.
func ssaLoop(fn *ssa.Function, stmt ast.Stmt) *loops.Loop {
	var best *loops.Loop
	bestSize := 0
	for _, l := range loops.Of(fn) {
		lo, hi := loopSpan(fn, l)
		if !lo.IsValid() || lo < stmt.Pos() || hi >= stmt.End() {
			continue
		}
		if n := len(l.Blocks(fn)); n > bestSize {
			best, bestSize = l, n
		}
	}
	return best
}
