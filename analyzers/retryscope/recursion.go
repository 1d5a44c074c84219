package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// recursion finds a function that calls itself again after a failure: the recursive call is
// only reachable through the failure side of a test of a call's outcome.
func (st *state) recursion(fn *ssa.Function) *Scope {
	var decl ast.Node
	selfVar := "" // a function literal's: the variable it calls itself through
	switch d := flow.Syntax(fn).(type) {
	case *ast.FuncDecl:
		if fn.Object() == nil {
			return nil
		}
		decl = d
	case *ast.FuncLit:
		if selfVar = closureVar(fn); selfVar == "" {
			return nil
		}
		decl = d
	default:
		return nil
	}
	all := func(*ssa.BasicBlock) bool { return true }
	var s *Scope
	var again []retryCall // the recursive calls made after a failure
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			var back *ssa.Call // through a helper of the package (callsBack)
			if selfVar != "" {
				if !callsItself(fn, call) || !st.sameOperation(fn, call) {
					continue
				}
			} else if call.Common().StaticCallee() != fn {
				if back = callsBack(fn, call); back == nil {
					continue
				}
			} else if !st.sameOperation(fn, call) {
				continue
			} else if fallsBack(fn, call) {
				return nil // it asks once more, differently: a fallback, not a retry
			}
			for _, d := range decisions(fn, all) {
				failure := d.block.Succs[1-d.success]
				if d.call == ssa.CallInstruction(call) || !failure.Dominates(b) || d.block.Succs[d.success].Dominates(b) {
					continue
				}
				again = append(again, retryCall{call, d, back})
				if s == nil {
					s = &Scope{Kind: Recursion, Fn: fn, at: fn, Node: decl, Body: decl, From: decl.Pos(), To: decl.End(), Decisive: d.call, selfVar: selfVar}
				}
				break
			}
		}
	}
	if s == nil || !slices.ContainsFunc(again, func(a retryCall) bool { return !st.recursionRecovers(a) && !st.onceMoreAfterChange(fn, a) }) {
		return nil // every way back fixes the cause first: a recovery, not a retry
	}
	s.Calls = slices.Collect(flow.Calls(fn))
	s.Attempts = recursionBound(fn, again)
	s.Wait = st.waitsOf(fn, s.Calls, all, nil, nil)
	if stepped, grown := steppedDelays(fn, again, s.Wait.Sleeps), growsDelayVia(fn, again, s.Wait.Sleeps); stepped || grown {
		s.Wait.Kind = combineWaits(s.Wait.Sleeps, 0)
	}
	s.Wait.Bypass = recursionBypass(again, s.Wait.Sleeps)
	s.Deadline = observesDeadline(slices.DeleteFunc(slices.Clone(s.Calls), func(c ssa.CallInstruction) bool {
		return c.Common().StaticCallee() == fn // passing ctx to itself bounds nothing
	}))
	if !slices.ContainsFunc(again, func(a retryCall) bool { return !st.underPolicy(a) }) {
		// c.backoff.Next(err) && ...: a policy handed the failure decides each way back, and
		// may count and wait as it likes.
		if s.Attempts.Kind == BoundNone {
			s.Attempts.Kind = BoundUnknown
		}
		if s.Wait.Kind == WaitNone {
			s.Wait.Kind = WaitUnknown
		}
	}
	ds := decisions(fn, all)
	if s.Wait.Kind == WaitNone && !slices.ContainsFunc(again, func(a retryCall) bool { return !afterHook(a.call) && !st.afterStep(a, ds) }) {
		// if e := c.RetryFunc(ctx, req, err, n); e != nil { return e }; return c.do(...):
		// a hook the program is given decides each way back, handed the context it may wait on
		// (or the way back recovers first: a 401 answered by a successful re-authentication).
		s.Wait.Kind = WaitUnknown
		if s.Deadline == DeadlineNone {
			s.Deadline = DeadlineContext
		}
	}
	return s
}

// closureVar returns the name of the variable the function literal fn is stored in and calls
// itself through (var reconnect func(); reconnect = func() { ...; reconnect() }), or "".
func closureVar(fn *ssa.Function) string {
	if fn.Parent() == nil {
		return ""
	}
	for call := range flow.Calls(fn) {
		if callsItself(fn, call) {
			if a, ok := selfBinding(fn, call); ok {
				return a.Comment
			}
		}
	}
	return ""
}

// callsItself reports whether call, in the function literal fn, calls fn through a variable
// fn captures, one that holds fn itself.
func callsItself(fn *ssa.Function, call ssa.CallInstruction) bool {
	_, ok := selfBinding(fn, call)
	return ok
}

// selfBinding returns the variable (an Alloc of fn's parent) that call, in fn, loads the
// function it calls from, when that variable holds only fn's closures.
func selfBinding(fn *ssa.Function, call ssa.CallInstruction) (*ssa.Alloc, bool) {
	ld, ok := flow.Unwrap(call.Common().Value).(*ssa.UnOp)
	if !ok || ld.Op != token.MUL || call.Common().IsInvoke() {
		return nil, false
	}
	fv, ok := ld.X.(*ssa.FreeVar)
	if !ok {
		return nil, false
	}
	idx := slices.Index(fn.FreeVars, fv)
	if idx < 0 || fn.Parent() == nil {
		return nil, false
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn || idx >= len(mc.Bindings) {
				continue
			}
			a, ok := mc.Bindings[idx].(*ssa.Alloc)
			if !ok {
				return nil, false
			}
			stored := flow.Stored(a)
			if len(stored) == 0 || slices.ContainsFunc(stored, func(v ssa.Value) bool { c, ok := v.(*ssa.MakeClosure); return !ok || c.Fn != fn }) {
				return nil, false
			}
			return a, true
		}
	}
	return nil, false
}

// recursionRecovers reports whether the recursive call a is made only once the failure was
// singled out as the program's own condition (errors.Is(err, ErrEndOfInput)) and after a step
// that changes what the next attempt sends (it stores a flag the attempt reads: inputClosed
// set, so the next call drains what is pending instead of reading): it asks again differently,
// once; it does not repeat the request. As recovers is for loops.
func (st *state) recursionRecovers(a retryCall) bool {
	return ownCondition(a.call.Block(), a.d) && st.changesOnWayBack(a)
}

// steppedDelays marks as backoff the fixed waits among sleeps whose delay is computed from a
// parameter that the recursive calls step (run(..., attempt+1, ...) sleeping delay(attempt)):
// the delay changes with the attempts, as one computed from a loop's counter does. It reports
// whether it marked one.
func steppedDelays(fn *ssa.Function, again []retryCall, sleeps []Sleep) bool {
	stepped := make(map[*ssa.Parameter]bool)
	for _, a := range again {
		for i, arg := range a.call.Call.Args {
			if b, ok := flow.Unwrap(arg).(*ssa.BinOp); ok && i < len(fn.Params) && (b.Op == token.ADD || b.Op == token.SUB) && flow.SameValue(b.X, fn.Params[i]) {
				stepped[fn.Params[i]] = true
			}
		}
	}
	marked := false
	for i, sl := range sleeps {
		if sl.Kind != WaitFixed || sl.Duration == nil {
			continue
		}
		flow.Backward(sl.Duration, 64, func(x ssa.Value) bool {
			for p := range stepped {
				if flow.SameValue(x, p) {
					sleeps[i].Kind, marked = WaitBackoff, true
				}
			}
			return sleeps[i].Kind == WaitFixed
		})
	}
	return marked
}

// afterStep reports whether the recursive call a.call runs only once another call, one that
// leaves the process (or may: a refresh hook the program is given) or a fallible function of
// the program's own, succeeded after the failure
// that sends it back (err = c.Reauthenticate(ctx, tok); if err != nil { return }; return
// c.do(...)): the way back recovers before it sends again.
func (st *state) afterStep(a retryCall, ds []decision) bool {
	for test, side := range takenSides(a.call.Block(), a.d.block) {
		for _, o := range ds {
			if o.block == test && side == test.Succs[o.success] && !o.policy && o.call != a.d.call && o.call != ssa.CallInstruction(a.call) &&
				(st.rem.Reach(o.call) != remote.ReachLocal || st.ownFunc(o.call)) {
				return true
			}
		}
	}
	return false
}

// underPolicy reports whether the recursive call a.call runs only on the yes side of a
// verdict that is handed the failed attempt's error and may keep state (a method, a closure,
// an interface's method: c.backoff.Next(err)): a retry policy, which may count the attempts
// and wait before it says yes.
func (st *state) underPolicy(a retryCall) bool {
	all := func(*ssa.BasicBlock) bool { return true }
	for test, side := range takenSides(a.call.Block(), a.d.block) {
		cond := lastInstr(test).(*ssa.If).Cond
		call, ok := cond.(*ssa.Call)
		if !ok || side != test.Succs[0] || countless(call) || st.statelessByDefault(call) {
			continue
		}
		if judged, policy := retryPolicy(cond, all); policy && judged == a.d.call {
			return true
		}
	}
	return false
}

// afterHook reports whether call runs only once a hook said go on: a block that dominates it
// ends in a test, against nil, of the error that a function value (a field or parameter of
// func type, or an interface's method) returns when handed a context, and call is on the side
// where that error is nil.
func afterHook(call *ssa.Call) bool {
	for b := call.Block(); b != nil; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		pred := b.Preds[0]
		cmp := equality(pred)
		if cmp == nil {
			continue
		}
		x, y := cmp.X, cmp.Y
		if flow.IsNil(x) {
			x, y = y, x
		}
		hook, ok := flow.Unwrap(x).(*ssa.Call)
		if !ok || !flow.IsNil(y) || hook.Call.StaticCallee() != nil ||
			!slices.ContainsFunc(hook.Call.Args, func(a ssa.Value) bool { return typeis.Context(a.Type()) }) {
			continue
		}
		nilSide := 0 // the successor taken when the error is nil
		if cmp.Op == token.NEQ {
			nilSide = 1
		}
		if pred.Succs[nilSide] == b {
			return true
		}
	}
	return false
}

// A retryCall is a recursive call a retrying function makes after a failure, with the test of
// the outcome that sends it there.
type retryCall struct {
	call *ssa.Call
	d    decision
	back *ssa.Call // through a helper: the helper's call of the function; nil when direct
}

// recursionBypass returns, when some of the recursive calls made after a failure wait first
// and another does not (a 429 that sleeps as told beside a 502 that calls again at once), the
// test that sends the failure to the one that does not; NoPos otherwise.
func recursionBypass(again []retryCall, sleeps []Sleep) token.Pos {
	// A wait before the recursive call; one in computing its arguments (the bucket locked
	// again for the same request) belongs to the next attempt, as the blocks from a loop's
	// header to its attempt do.
	waited := func(c *ssa.Call) bool {
		return slices.ContainsFunc(sleeps, func(sl Sleep) bool {
			v, isValue := sl.Call.(ssa.Value)
			return sl.Call.Parent() == c.Parent() && flow.Before(sl.Call, c) && !(isValue && slices.Contains(c.Call.Args, v))
		})
	}
	some := false
	for _, a := range again {
		some = some || waited(a.call)
	}
	if !some {
		return token.NoPos
	}
	for _, a := range again {
		if !waited(a.call) {
			if ifInstr, ok := a.d.block.Instrs[len(a.d.block.Instrs)-1].(*ssa.If); ok && ifInstr.Cond.Pos().IsValid() {
				return ifInstr.Cond.Pos()
			}
			return a.call.Pos()
		}
	}
	return token.NoPos
}

// sameOperation reports whether a recursive call repeats the call it is in: every argument is
// the same parameter, a constant, a counter (a parameter plus or minus a constant, or a
// variadic count: retry(in, c+1) with retryCount ...int), a
// resource acquired again in the process for the same request (see reacquired), or anything
// for a time.Duration parameter (a delay) or a parameter the function only hands back (carriedOnly: the last error, returned once
// the attempts run out). Recursion over smaller data (path[1:], node.Next) walks a structure;
// it does not retry.
func (st *state) sameOperation(fn *ssa.Function, call *ssa.Call) bool {
	args := call.Common().Args
	if len(args) != len(fn.Params) {
		return false
	}
	for i, a := range args {
		p := fn.Params[i]
		if carriedOnly(fn, p, i) || typeis.Duration(p.Type()) {
			continue // (a delay the recursion grows: what is sent does not depend on it)
		}
		switch a := flow.Unwrap(a).(type) {
		case *ssa.Const:
		case *ssa.BinOp:
			if !stepOf(a, p) || st.walksWith(fn, p, call) {
				return false
			}
		case *ssa.Slice:
			stepped, _, ok := variadicStep(fn, a, p)
			if !ok || st.walksWith(fn, stepped.X, call) {
				return false
			}
		case *ssa.Call:
			if !flow.SameValue(a, p) && !st.reacquired(fn, a, p) && !remote.Remade(a, p) {
				return false
			}
		default:
			if !flow.SameValue(a, p) && !remote.Remade(a, p) {
				return false
			}
		}
	}
	return true
}

// carriedOnly reports whether parameter p (the i-th) of fn shapes nothing fn does: it is only
// returned, or handed on to fn itself in the same place (run(..., attempt+1, lastErr)); also
// through the variable it is spilled to (a function with a defer keeps its parameters there).
func carriedOnly(fn *ssa.Function, p *ssa.Parameter, i int) bool {
	used := false
	var only func(v ssa.Value, depth int) bool
	only = func(v ssa.Value, depth int) bool {
		refs := v.Referrers()
		if refs == nil || depth > 1 {
			return false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.Return:
				used = true
			case *ssa.Call:
				args := r.Call.Args
				if r.Call.StaticCallee() != fn || i >= len(args) || args[i] != v || slices.Index(args, v) != i {
					return false
				}
			case *ssa.Store:
				a, ok := r.Addr.(*ssa.Alloc)
				if !ok || r.Val != v || a.Referrers() == nil {
					return false
				}
				if resultSlot(a) {
					used = true // return ..., v in a function with a defer: stored into the result
					continue
				}
				for _, ar := range *a.Referrers() {
					switch ar := ar.(type) {
					case *ssa.Store:
						if ar.Val != v {
							return false // assigned something else too
						}
					case *ssa.UnOp:
						if ar.Op != token.MUL || !only(ar, depth+1) {
							return false
						}
					case *ssa.DebugRef:
					default:
						return false
					}
				}
			default:
				return false
			}
		}
		return true
	}
	return only(p, 0) && used
}

// resultSlot reports whether a is where a function with a defer keeps a result: what is
// loaded from it is only returned.
func resultSlot(a *ssa.Alloc) bool {
	loaded := false
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store, *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL || r.Referrers() == nil {
				return false
			}
			for _, lr := range *r.Referrers() {
				if _, ret := lr.(*ssa.Return); !ret {
					return false
				}
			}
			loaded = true
		default:
			return false
		}
	}
	return loaded
}

// reacquired reports whether c, the argument a recursive call of fn passes for parameter p,
// acquires again, in the process, what p held for the same request (a rate-limit bucket
// looked up again for the route: c.request(ctx, method, route, body, c.bucketFor(route))): a
// call of a function of the package that stays in the process, whose arguments are fn's other
// parameters (not p, whose data a walk would step through; not the attempt's result, whose
// data a redirect or the next page follows) or constants. A value fetched from a remote
// dependency (a refreshed token) changes what is sent: a recovery, not a retry.
func (st *state) reacquired(fn *ssa.Function, c *ssa.Call, p *ssa.Parameter) bool {
	callee := c.Call.StaticCallee()
	if callee == nil || callee.Pkg != st.ssaPkg || callee == fn || st.rem.Reach(c) != remote.ReachLocal {
		return false
	}
	for i, a := range c.Call.Args {
		switch a := flow.Unwrap(a).(type) {
		case *ssa.Const:
		case *ssa.Parameter:
			if a.Parent() != fn || a == p && !returnsParam(callee, i) {
				return false
			}
		case *ssa.UnOp:
			// The receiver's own state (s.limiter.Lock(b)): a field of another parameter.
			fa, ok := a.X.(*ssa.FieldAddr)
			if !ok || a.Op != token.MUL {
				return false
			}
			if !slices.ContainsFunc(fn.Params, func(x *ssa.Parameter) bool { return x != p && flow.SameValue(fa.X, x) }) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// returnsParam reports whether every return of fn gives back its parameter i itself (a lock
// that waits for the bucket it is given and returns it): what it returns is what it was
// given, acquired again, not the next item of a walk.
func returnsParam(fn *ssa.Function, i int) bool {
	if i >= len(fn.Params) || fn.Signature.Results().Len() != 1 {
		return false
	}
	n := 0
	for ret := range flow.Returns(fn) {
		if len(ret.Results) != 1 || flow.Unwrap(ret.Results[0]) != fn.Params[i] {
			return false
		}
		n++
	}
	return n > 0
}

// fallsBack reports whether the recursive call passes, for a parameter that shapes what the
// function sends, a constant that turns off the test guarding the call (initiate(ctx, from)
// calls initiate(ctx, "") under if from != ""): it recurses at most once, with a different
// request, as a fallback for a peer that refused the first form.
func fallsBack(fn *ssa.Function, call *ssa.Call) bool {
	for i, a := range call.Common().Args {
		k, ok := flow.Unwrap(a).(*ssa.Const)
		if !ok || k.Value == nil || i >= len(fn.Params) {
			continue
		}
		p := fn.Params[i]
		guards, other := 0, false
		for _, ref := range *p.Referrers() {
			if guardOff(ref, p, k, call.Block()) {
				guards++
			} else if b, isBin := ref.(*ssa.BinOp); !isBin || !comparison(b.Op) {
				other = true // used for what it says, not only tested (duration/time.Second)
			}
		}
		if guards > 0 && other {
			return true
		}
	}
	return false
}

// comparison reports whether op compares (==, !=, <, <=, >, >=).
func comparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// guardOff reports whether instr is a comparison of p with a constant that a block ending in a
// branch on it uses to guard blk, and that sends control away from blk when p is k.
func guardOff(instr ssa.Instruction, p *ssa.Parameter, k *ssa.Const, blk *ssa.BasicBlock) bool {
	cmp, ok := instr.(*ssa.BinOp)
	if !ok || !comparison(cmp.Op) {
		return false
	}
	other, op := cmp.Y, cmp.Op
	if cmp.Y == p {
		other, op = cmp.X, mirror(cmp.Op)
	}
	c, ok := other.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != k.Value.Kind() {
		return false
	}
	holds := constant.Compare(k.Value, op, c.Value) // the comparison's value when p is k
	for _, ref := range *cmp.Referrers() {
		if ifInstr, ok := ref.(*ssa.If); ok {
			away := ifInstr.Block().Succs[1] // the side not taken when p is k
			if !holds {
				away = ifInstr.Block().Succs[0]
			}
			if away.Dominates(blk) {
				return true
			}
		}
	}
	return false
}

// onceMoreAfterChange reports whether the recursive call a is made at most once (onceAgain)
// and only after a step that changes what the next attempt sends (a dropped connection, so
// that the next attempt dials anew: c.conn = nil; return c.write(msg, true)): it asks once
// more on a fresh footing, as recovers accepts of a loop bounded at two attempts.
func (st *state) onceMoreAfterChange(fn *ssa.Function, a retryCall) bool {
	if !onceAgain(fn, a) {
		return false
	}
	return st.changesOnWayBack(a)
}

// changesOnWayBack reports whether a block between the failure's test and the recursive call a
// (on the call's dominator tree) changes what the next attempt sends (changesRequest).
func (st *state) changesOnWayBack(a retryCall) bool {
	changes := st.changesRequest(a.d, a.call)
	for b := a.call.Block(); b != nil && b != a.d.block; b = b.Idom() {
		if changes(b) {
			return true
		}
	}
	if a.back != nil {
		// Through a helper (createTableAndRetry: create the table, then write again): the
		// helper's blocks on the way to its call back.
		changes := st.changesRequest(a.d, a.back)
		for b := a.back.Block(); b != nil; b = b.Idom() {
			if changes(b) {
				return true
			}
		}
	}
	return false
}

// walksWith reports whether fn hands the count n it steps for the next call to a call that may
// leave the process, other than fn itself (list(page): the next page, the next shard): each
// call then asks for something else, iteration rather than a retry, as a counted loop whose
// counter is the call's argument. (A count that indexes the targets, servers[i], still
// retries: the same request, elsewhere.)
func (st *state) walksWith(fn *ssa.Function, n ssa.Value, self *ssa.Call) bool {
	refs := n.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if c, ok := r.(*ssa.Call); ok && c != self && c.Call.StaticCallee() != fn && slices.Contains(c.Call.Args, n) && st.rem.Reach(c) == remote.ReachRemote {
			return true
		}
	}
	return false
}
