// What bounds a retrying recursion: a parameter counted down or up, a count kept where a
// parameter points, a policy that counts; and what makes a recursion stateless.

package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"golang.org/x/tools/go/ssa"
)

// recursionBound: a recursion that passes a parameter plus or minus a constant to itself (or a
// count in a variadic list) is bounded by that count when it reads it for anything besides the
// step, or steps a count kept elsewhere (see counts); one of its ways back that passes the
// count on unchanged (a 429 that calls again with the same sequence number) is not.
func recursionBound(fn *ssa.Function, again []retryCall) Bound {
	if !slices.ContainsFunc(again, func(a retryCall) bool { return !onceAgain(fn, a) }) {
		return Bound{Kind: BoundConst, N: 2}
	}
	for _, a := range again {
		if a.back == nil && !counts(fn, a.call) && !countsInPlace(fn, a.call) && !stepsElsewhere(fn) || a.back != nil && !countsVia(fn, a.call, a.back) {
			return Bound{Kind: BoundNone}
		}
	}
	return Bound{Kind: BoundVar}
}

// counts reports whether call passes one of fn's parameters plus or minus a constant, and fn
// reads that count for something else too (a test of a limit, a policy it is handed; a log
// line counts as well, which the model does not tell apart), or steps a count kept elsewhere
// (stepsElsewhere). A count only stepped for the next call, under a test of a count that
// never changes (retrier(in, n+1) under if first > max), bounds nothing.
func counts(fn *ssa.Function, call *ssa.Call) bool {
	i, _ := countedParam(fn, call)
	if i < 0 {
		return false
	}
	if stepsElsewhere(fn) {
		return true // tries++ on a captured counter, s.fails++, *budget--: that may be the cap
	}
	if st, _, ok := variadicStep(fn, call.Call.Args[i], fn.Params[i]); ok {
		return readBeyondStep(st.X, st, call) // the count read from the list: if c > max
	}
	return readBeyondStep(fn.Params[i], call.Call.Args[i], call)
}

// stepsElsewhere reports whether fn steps a count kept outside its parameters: it stores x
// plus or minus a constant where x was loaded from (tries++ on a captured variable,
// s.fails++, *budget--, a package counter).
func stepsElsewhere(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			x, _, stepped := step(st.Val)
			if !stepped {
				continue
			}
			if ld, ok := flow.Unwrap(x).(*ssa.UnOp); ok && ld.Op == token.MUL && flow.PlaceOf(ld.X) == flow.PlaceOf(st.Addr) {
				return true
			}
		}
	}
	return false
}

// readBeyondStep reports whether the count p (a parameter, or the value read from a variadic
// one), or the step made from it (p + 1, arg of call), is used other than to hand the step to
// call: tested against a limit (if retries--; retries > 0), handed to a policy, stored (but
// not into the variadic list handed on).
func readBeyondStep(p, arg ssa.Value, call *ssa.Call) bool {
	step := flow.Unwrap(arg)
	usedElsewhere := func(v ssa.Value, skip func(ssa.Instruction) bool) bool {
		if v.Referrers() == nil {
			return false
		}
		for _, r := range *v.Referrers() {
			if _, debug := r.(*ssa.DebugRef); !debug && !skip(r) {
				return true
			}
		}
		return false
	}
	isStep := func(r ssa.Instruction) bool {
		v, ok := r.(ssa.Value)
		return ok && (v == step || flow.SameValue(v, arg))
	}
	if usedElsewhere(p, isStep) {
		return true
	}
	if _, made := step.(ssa.Instruction); !made {
		return false
	}
	return usedElsewhere(step, func(r ssa.Instruction) bool {
		st, intoList := r.(*ssa.Store)
		return r == ssa.Instruction(call) || isStep(r) || intoList && st.Val == step && isElem(st.Addr)
	})
}

// countsInPlace reports whether fn, before call, steps a counter kept where one of its
// parameters points, and call hands that parameter on unchanged (opts.tries++, or
// extra["retry"] = extra["retry"].(int) + 1, then c.execute(req, opts)): the count travels
// with the recursion.
func countsInPlace(fn *ssa.Function, call *ssa.Call) bool {
	handed := func(x ssa.Value) bool {
		for i, a := range call.Call.Args {
			if i < len(fn.Params) && flow.SameValue(a, fn.Params[i]) && flow.SameValue(x, fn.Params[i]) {
				return true
			}
		}
		return false
	}
	sameKey := func(a, b ssa.Value) bool {
		ka, okA := a.(*ssa.Const)
		kb, okB := b.(*ssa.Const)
		if okA && okB && ka.Value != nil && kb.Value != nil {
			return constant.Compare(ka.Value, token.EQL, kb.Value)
		}
		return flow.SameValue(a, b)
	}
	for _, b := range fn.Blocks {
		if !b.Dominates(call.Block()) {
			continue
		}
		for _, instr := range b.Instrs {
			if instr == ssa.Instruction(call) {
				break
			}
			switch in := instr.(type) {
			case *ssa.Store:
				fa, ok := in.Addr.(*ssa.FieldAddr)
				x, _, stepped := step(in.Val)
				if !ok || !stepped {
					continue
				}
				if _, from := flow.FieldLoad(flow.Unwrap(x)); from != nil && from.Field == fa.Field && flow.SameValue(from.X, fa.X) && handed(fa.X) {
					return true
				}
			case *ssa.MapUpdate:
				x, _, stepped := step(in.Value)
				if !stepped {
					continue
				}
				x = flow.Unwrap(x)
				if ta, ok := x.(*ssa.TypeAssert); ok {
					x = ta.X
				}
				if lk, ok := x.(*ssa.Lookup); ok && flow.SameValue(lk.X, in.Map) && sameKey(lk.Index, in.Key) && handed(flow.PlaceOf(in.Map).Root) {
					return true
				}
			}
		}
	}
	return false
}

// countedParam returns the index of the parameter of fn that call passes plus or minus a
// constant, and the operator; -1 when none is.
func countedParam(fn *ssa.Function, call *ssa.Call) (int, token.Token) {
	for i, a := range call.Common().Args {
		if x, op, ok := step(a); ok && i < len(fn.Params) && flow.SameValue(x, fn.Params[i]) {
			return i, op
		}
		if i < len(fn.Params) {
			if _, op, ok := variadicStep(fn, a, fn.Params[i]); ok {
				return i, op // retry(in, c+1) with retryCount ...int
			}
		}
	}
	return -1, token.ILLEGAL
}

// policyMayCount reports whether the retry policy that decides d may hold a limit on attempts
// of its own (see countless).
func policyMayCount(d decision) bool {
	ifInstr, ok := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If)
	if !ok {
		return true
	}
	call, ok := unNot(ifInstr.Cond).(*ssa.Call)
	return !ok || !countless(call)
}

// countless reports whether a verdict call cannot count attempts: a plain function (no
// receiver, no captured variables, called statically) handed no number that may be the
// attempt, such as isConflict(err) or hasStatus(err, 503). A method, a closure, a function
// value or interface keeps state, and a number that varies may be the attempt: those may
// hold a limit of their own. A constant is the same every round: a status, not a count.
func countless(call *ssa.Call) bool {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Signature.Recv() != nil || len(fn.FreeVars) > 0 {
		return false
	}
	for _, a := range call.Call.Args {
		if _, constant := flow.Unwrap(a).(*ssa.Const); typeis.Integer(a.Type()) && !constant {
			return false
		}
	}
	return true
}

// statelessByDefault reports whether call, a verdict asked of an interface value kept in an
// unexported field of the package, can neither count nor wait as the package fills the field:
// each value the package stores there itself (besides those its callers give through an
// exported function or option) is of a type of its own whose method keeps no state (it reads
// neither its receiver nor a package variable) and waits for nothing
// (c.retryer.ShouldRetry(err), with retryer: DefaultRetryer{} by default). The default is
// what most users run.
func (st *state) statelessByDefault(call *ssa.Call) bool {
	if !call.Call.IsInvoke() || st.stores == nil {
		return false
	}
	fv := flow.OwnField(call.Call.Value, st.pass.Pkg)
	if fv == nil {
		return false
	}
	own := 0
	for _, v := range st.stores.Fields[fv] {
		if testcode.Made(st.pass, v) || flow.CallersValue(v) {
			continue // a test's stand-in, or a caller's
		}
		x := flow.Unwrap(v)
		t := x.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || named.Obj().Pkg() != st.pass.Pkg {
			return false
		}
		sel := st.ssaPkg.Prog.MethodSets.MethodSet(x.Type()).Lookup(call.Call.Method.Pkg(), call.Call.Method.Name())
		if sel == nil {
			return false
		}
		m := st.ssaPkg.Prog.MethodValue(sel)
		if m == nil || m.Pkg != st.ssaPkg || !stateless(m) || st.funcWaits(m, 0) != nil {
			return false
		}
		own++
	}
	return own > 0
}

// stateless reports whether method m keeps nothing from one call to the next: it never uses its
// receiver, and names no package variable.
func stateless(m *ssa.Function) bool {
	if len(m.Params) == 0 || m.Signature.Recv() == nil {
		return false
	}
	if refs := m.Params[0].Referrers(); refs != nil && len(*refs) > 0 {
		return false
	}
	for _, b := range m.Blocks {
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(nil) {
				if _, ok := (*op).(*ssa.Global); ok {
					return false
				}
			}
		}
	}
	return true
}

// neverLeavesOnFailure reports whether loop l cannot be left once its decision d has gone the
// failure way: no exit is reachable from the failure side before control is back at the
// decision, through the header and whatever the next round does before it (a test of the
// context at the top of the round is a way out).
func neverLeavesOnFailure(l *loops.Loop, d decision) bool {
	seen := map[*ssa.BasicBlock]bool{d.block: true}
	stack := []*ssa.BasicBlock{d.block.Succs[1-d.success]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		if !l.Contains(b) {
			return false
		}
		seen[b] = true
		if side := otherFailureSide(b, d.call); side >= 0 {
			// if e.Code == "55P03" { ...; return err }: a test for one particular failure of
			// the attempt, which a done context's error is not.
			stack = append(stack, b.Succs[side])
			continue
		}
		stack = append(stack, b.Succs...)
	}
	return true
}

// otherFailureSide returns the successor of b's branch taken when its test, on the error of
// call, asks for one particular failure that is not a context's end (a code compared with a
// constant: e.Code == "55P03", errors.Is(err, ErrLocked)) and that failure is not the one at
// hand; -1 when b ends with no such test.
func otherFailureSide(b *ssa.BasicBlock, call ssa.CallInstruction) int {
	ifInstr, ok := lastInstr(b).(*ssa.If)
	if !ok {
		return -1
	}
	switch c := ifInstr.Cond.(type) {
	case *ssa.BinOp:
		k, other := constOperand(c)
		if k == nil || k.Value == nil || !derivesFrom(other, call) {
			return -1
		}
		switch c.Op {
		case token.EQL:
			return 1
		case token.NEQ:
			return 0
		}
	case *ssa.Call:
		id := flow.ID(flow.Callee(c.Common()))
		if knowledge.ErrorsTest(id) && id.Name == "Is" && len(c.Call.Args) == 2 && derivesFrom(c.Call.Args[0], call) && errorVar(c.Call.Args[1]) && !contextError(c.Call.Args[1]) {
			return 1
		}
	}
	return -1
}

// constOperand returns the constant operand of b and the other one.
func constOperand(b *ssa.BinOp) (*ssa.Const, ssa.Value) {
	if k, ok := b.Y.(*ssa.Const); ok {
		return k, b.X
	}
	if k, ok := b.X.(*ssa.Const); ok {
		return k, b.Y
	}
	return nil, nil
}

// derivesFrom reports whether v is computed from a result of call: its error, a field of it, a
// function applied to it (sqlutil.MapError(err).Code).
func derivesFrom(v ssa.Value, call ssa.CallInstruction) bool {
	cv, ok := call.(*ssa.Call)
	found := false
	flow.Backward(v, 64, func(x ssa.Value) bool {
		found = found || ok && x == ssa.Value(cv)
		return !found
	})
	return found
}

// contextError reports whether v loads context.Canceled or context.DeadlineExceeded.
func contextError(v ssa.Value) bool {
	load, ok := flow.Unwrap(v).(*ssa.UnOp)
	if !ok {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "context"
}

// isElem reports whether addr is the address of an element of an array or slice.
func isElem(addr ssa.Value) bool {
	_, ok := addr.(*ssa.IndexAddr)
	return ok
}
