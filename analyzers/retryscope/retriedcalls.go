package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// rounds returns, for a hand-written scope (a loop, a range over a retry iterator, a retrying
// function that calls itself), the blocks
// whose tests can decide (in) and whether a block can lead to the next attempt (round).
func (s *Scope) rounds() (in, round func(*ssa.BasicBlock) bool, ok bool) {
	switch {
	case (s.Kind == Loop || s.Kind == Goto) && s.Loop != nil && s.Fn != nil:
		return s.Loop.Contains, s.Loop.CanRepeat, true
	case s.Kind == Iterator && s.Fn != nil:
		return func(*ssa.BasicBlock) bool { return true }, func(b *ssa.BasicBlock) bool { return reachesReturn(b, true) }, true
	case s.Kind == Recursion && s.Fn != nil && s.selfVar == "":
		// A retrying function goes round where it calls itself: a block goes round when a
		// call of the function itself lies ahead of it.
		again := make(map[*ssa.BasicBlock]bool)
		for c := range flow.Calls(s.Fn) {
			if c.Common().StaticCallee() == s.Fn {
				again[c.Block()] = true
			}
		}
		if len(again) == 0 {
			return nil, nil, false // through a helper of the package: not followed here
		}
		return func(*ssa.BasicBlock) bool { return true }, func(b *ssa.BasicBlock) bool {
			for x := range flow.Forward([]*ssa.BasicBlock{b}, nil) {
				if again[x] {
					return true
				}
			}
			return false
		}, true
	}
	return nil, nil, false
}

// RetriesFailureOf reports whether the scope can go round after call fails. A hand-written
// scope (a loop, a range over a retry iterator) whose every test of call's outcome leaves on
// the failure side does not retry that call: it repeats it after successes (a long poll
// reconnecting), and its failure ends the scope. True when the scope is not hand-written or
// tests the call's outcome nowhere the model follows. A call whose results are all dropped
// (_ = abort(ctx), a cleanup on the way round) is not retried: its failure neither ends nor
// repeats the scope.
func (s *Scope) RetriesFailureOf(call ssa.CallInstruction) bool {
	if s.Kind == Callback && call.Parent() == s.Fn && s.marksFailure(call) {
		return false // if err != nil { return backoff.Permanent(err) }: the helper stops on it
	}
	in, round, ok := s.rounds()
	if ok && s.Kind == Recursion && call.Parent() != s.Fn {
		// In a closure the function makes (db.Transaction(func(tx) error { ... })): it can go
		// round after the call only if it calls itself after making the closure.
		if mc := closureMade(s.Fn, call.Parent()); mc != nil {
			return round(mc.Block())
		}
	}
	if !ok || call.Parent() != s.Fn {
		return true
	}
	if dropped(call) {
		return false
	}
	tested := false
	for _, d := range decisions(s.Fn, in) {
		if d.call != call {
			continue
		}
		tested = true
		if round(d.block.Succs[1-d.success]) && !s.answerFlag(d) {
			return true
		}
	}
	return !tested
}

// closureMade returns the instruction of fn that makes the closure inner runs in, directly or
// through closures made in closures; nil when inner is not written inside fn.
func closureMade(fn, inner *ssa.Function) *ssa.MakeClosure {
	for inner != nil && inner.Parent() != fn {
		inner = inner.Parent()
	}
	if inner == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == inner {
				return mc
			}
		}
	}
	return nil
}

// answerFlag reports whether decision d tests a boolean result of its call that the callee,
// a function of the program, sets true only once one of its calls that leave the process
// succeeded (resp, body, again, err := c.innerDo(req): again is true only after the client's
// Do returned a response, whose content asks for another round). Going round on it is going
// round after a success: the layers inside the callee did not give up.
func (s *Scope) answerFlag(d decision) bool {
	ex, ok := unNot(d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If).Cond).(*ssa.Extract)
	if !ok || ex.Tuple != d.call.Value() || !typeis.Bool(ex.Type()) || s.rem == nil {
		return false
	}
	fn := d.call.Common().StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	ds := decisions(fn, all)
	// Where the flag can be set true: a return of it, or, with defers, a store into the
	// result's slot that the return loads.
	var at []*ssa.BasicBlock
	for ret := range flow.Returns(fn) {
		if ex.Index >= len(ret.Results) {
			return false
		}
		v := ret.Results[ex.Index]
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			if slot, ok := load.X.(*ssa.Alloc); ok {
				for _, r := range *slot.Referrers() {
					if st, ok := r.(*ssa.Store); ok && st.Addr == slot && !isFalse(st.Val) {
						at = append(at, st.Block())
					}
				}
				continue
			}
		}
		if !isFalse(v) {
			at = append(at, ret.Block())
		}
	}
	for _, b := range at {
		after := slices.ContainsFunc(ds, func(o decision) bool {
			return !o.policy && s.rem.Reach(o.call) == remote.ReachRemote && o.block.Succs[o.success].Dominates(b)
		})
		if !after {
			return false
		}
	}
	return len(at) > 0
}

// dropped reports whether every result of call is left unused: a call statement, or
// assignments to the blank identifier.
func dropped(call ssa.CallInstruction) bool {
	v := call.Value()
	if v == nil {
		return false // go and defer: not the scope's to test
	}
	for _, r := range *v.Referrers() {
		ex, ok := r.(*ssa.Extract)
		if !ok || len(*ex.Referrers()) > 0 {
			return false
		}
	}
	return true
}

// marksFailure reports whether retry callback s hands every failure of call back marked as
// not to retry (markedPermanent), and no return of an error its helper retries lies on that
// failure's side (if attempt < 30 { log(err); return errRetry }: some failures go round).
func (s *Scope) marksFailure(call ssa.CallInstruction) bool {
	if !markedPermanent(call, s.helperStops, s.helperMarks) {
		return false
	}
	cb := s.callbackSpan()
	if cb == nil {
		return true // no return of the callback is retried
	}
	all := func(*ssa.BasicBlock) bool { return true }
	for _, d := range decisions(s.Fn, all) {
		if d.call == call && cb.canRepeat(d.block.Succs[1-d.success]) {
			return false
		}
	}
	return true
}

// markedPermanent reports whether the error call returns is only tested against nil, handed to
// calls whose results are dropped (a log line), and handed to a library's mark for errors not
// to retry (backoff.Permanent, retry-go's Unrecoverable) or put into a field of an error of
// one of the types stops (the helper's own mark: opsretry.Fatal{Underlying: err}). Whether
// every failure's way leads there is marksFailure's question.
func markedPermanent(call ssa.CallInstruction, stops []string, marks []flow.FuncID) bool {
	errv := errorOf(call)
	if errv == nil || !typeis.ErrorLike(errv.Type()) {
		return false
	}
	marked := false
	var uses func(x ssa.Value, depth int) bool
	uses = func(x ssa.Value, depth int) bool {
		if depth > 3 {
			return false
		}
		for _, r := range *x.Referrers() {
			switch r := r.(type) {
			case *ssa.BinOp:
				if !flow.IsNil(r.X) && !flow.IsNil(r.Y) {
					return false
				}
			case *ssa.MakeInterface:
				if !uses(r, depth+1) {
					return false
				}
			case *ssa.ChangeInterface:
				if !uses(r, depth+1) {
					return false
				}
			case ssa.CallInstruction:
				fn := flow.Callee(r.Common())
				switch {
				case fn != nil && stopMark(flow.ID(fn), marks):
					marked = true
				case wraps(fn) && r.Value() != nil:
					// errors.Join(err, ...): the wrapped error is what is marked, or not
					if !uses(r.Value(), depth+1) {
						return false
					}
				case dropsResult(r):
					// log.Warn("listing failed", "err", err): nothing comes back to return
				default:
					return false
				}
			case *ssa.Store:
				if fa, ok := r.Addr.(*ssa.FieldAddr); ok && r.Val == x && madeStop(fa.X, stops) {
					marked = true
					continue
				}
				// fmt.Errorf("...: %w", err): err goes into the call's variadic array
				call := variadicCall(r)
				if call != nil && !wraps(flow.Callee(call.Common())) && dropsResult(call) {
					continue // a log line's arguments
				}
				if call == nil || !wraps(flow.Callee(call.Common())) || call.Value() == nil || !uses(call.Value(), depth+1) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return uses(errv, 0) && marked
}

// wraps reports whether fn wraps the errors it is given into the error it returns.
func wraps(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	id := flow.ID(fn)
	return id.Pkg == "fmt" && id.Name == "Errorf" || id.Pkg == "errors" && id.Name == "Join"
}

// variadicCall returns the call whose variadic argument array store st fills, or nil.
func variadicCall(st *ssa.Store) ssa.CallInstruction {
	ia, ok := st.Addr.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	alloc, ok := ia.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, r := range *alloc.Referrers() {
		if sl, ok := r.(*ssa.Slice); ok {
			for _, rr := range *sl.Referrers() {
				if c, ok := rr.(ssa.CallInstruction); ok {
					return c
				}
			}
		}
	}
	return nil
}

// flagSense tells what fn's boolean result flag says about its error result, from its returns:
// true only where the error is set and false on some return of a nil error (a "try again" flag:
// return true, err on a failure worth repeating), or true only with a nil error and false only
// with one set (an "ok" flag). A flag that also stands beside a nil error on both sides (more,
// err := r.next()) says something else, unless where it is true the function has found a
// failure and where it is false on some way it has not: an attempt that says "go again" (res,
// again, err := s.attempt(req): true, nil once a send failed in a way it may retry, false, nil
// on success). A return of another function of the package's flag and error (return
// s.onResponse(resp)) says what that function's returns say, past the failures found on the
// way to it.
func flagSense(fn *ssa.Function, flag int) (trueFails, ok bool) {
	if fn == nil || len(fn.Blocks) == 0 || flag >= fn.Signature.Results().Len() || !typeis.Bool(fn.Signature.Results().At(flag).Type()) {
		return false, false
	}
	errAt := -1
	for i := range fn.Signature.Results().Len() {
		if typeis.ErrorLike(fn.Signature.Results().At(i).Type()) {
			if errAt >= 0 {
				return false, false
			}
			errAt = i
		}
	}
	if errAt < 0 {
		return false, false
	}
	// For each value of the flag: does it come with a nil error, with an error set; past a
	// failure the function found, or on a way that found none?
	var nilWith, setWith [2]bool
	var past flagTally
	known := true
	var visit func(flagV, errV ssa.Value, at *ssa.BasicBlock, failed bool, depth int)
	visit = func(flagV, errV ssa.Value, at *ssa.BasicBlock, failed bool, depth int) {
		flagV, errV = stored(flagV), stored(errV)
		failed = failed || pastFailure(at)
		fp, _ := flagV.(*ssa.Phi)
		ep, _ := errV.(*ssa.Phi)
		if fp != nil && (ep == nil || ep.Block() == fp.Block()) && depth < 4 {
			// Returns that meet in one block (as they do under a defer): each way in.
			for i, e := range fp.Edges {
				ev := errV
				if ep != nil {
					ev = ep.Edges[i]
				}
				visit(e, ev, fp.Block().Preds[i], failed, depth+1)
			}
			return
		}
		if callee, fx, ex := tailCall(fn, flagV, errV); callee != nil && depth < 4 {
			for ret := range flow.Returns(callee) {
				if ret.Block() != callee.Recover && len(ret.Results) == callee.Signature.Results().Len() {
					visit(ret.Results[fx], ret.Results[ex], ret.Block(), failed, depth+1)
				}
			}
			return
		}
		f, ok := flow.BoolConst(flagV)
		if !ok {
			known = false // computed: its sense is not in the returns
			return
		}
		v := 0
		if f {
			v = 1
		}
		if flow.IsNil(errV) {
			nilWith[v] = true
		} else {
			setWith[v] = true
		}
		past.note(f, failed)
	}
	for ret := range flow.Returns(fn) {
		if ret.Block() == fn.Recover || len(ret.Results) != fn.Signature.Results().Len() {
			continue // the recovery from a panic returns what the slots hold: not a way out
		}
		visit(ret.Results[flag], ret.Results[errAt], ret.Block(), false, 0)
	}
	if !known {
		return false, false
	}
	switch {
	case setWith[1] && !nilWith[1] && nilWith[0]:
		return true, true
	case nilWith[1] && !setWith[1] && setWith[0] && !nilWith[0]:
		return false, true
	case past.tryAgain():
		return true, true
	}
	return false, false
}

// A flagTally records, for each value of a bool a function returns, whether it is returned
// past a failure the function found, or on a way that found none.
type flagTally struct{ failedWith, cleanWith [2]bool }

func (t *flagTally) note(f, failed bool) {
	i := 0
	if f {
		i = 1
	}
	if failed {
		t.failedWith[i] = true
	} else {
		t.cleanWith[i] = true
	}
}

// tryAgain: true only past a failure, false on some clean way.
func (t flagTally) tryAgain() bool {
	return t.failedWith[1] && !t.cleanWith[1] && t.cleanWith[0]
}

// ok: true only on clean ways, false only past failures.
func (t flagTally) ok() bool {
	return t.cleanWith[1] && !t.failedWith[1] && t.failedWith[0] && !t.cleanWith[0]
}

// tailCall returns the function of fn's package whose results flagV and errV are (return
// s.onResponse(res, resp)), with the indices of the two among them; nil when they are not the
// results of one such call.
func tailCall(fn *ssa.Function, flagV, errV ssa.Value) (*ssa.Function, int, int) {
	fx, ok := flagV.(*ssa.Extract)
	if !ok {
		return nil, 0, 0
	}
	ex, ok := errV.(*ssa.Extract)
	if !ok || ex.Tuple != fx.Tuple {
		return nil, 0, 0
	}
	c, ok := fx.Tuple.(*ssa.Call)
	if !ok {
		return nil, 0, 0
	}
	callee := c.Call.StaticCallee()
	if callee == nil || callee == fn || callee.Pkg != fn.Pkg || len(callee.Blocks) == 0 {
		return nil, 0, 0
	}
	return callee, fx.Index, ex.Index
}

// pastFailure reports whether block b runs only once a failure was found: on the non-nil side
// of a test of an error against nil, or on the side of a test of a response's status that
// holds transient failures (statusesOn), not only one client error's answer (== 409).
func pastFailure(b *ssa.BasicBlock) bool {
	for ifInstr, side := range flow.TestsAbove(b) {
		if side < 0 {
			continue
		}
		if errv, nilSide := testedError(ifInstr); errv != nil && side != nilSide {
			return true
		}
		if cmp, ok := ifInstr.Cond.(*ssa.BinOp); ok {
			// The side where 200 does not fall, when a transient answer (5xx, 429) falls on
			// it: a test for one answer (409: the lease is held, 404: not there yet) tells
			// what the server said, not that the call failed.
			if _, success, ok := statusSides(cmp); ok && side != success {
				if _, op, code, _ := statusCompare(cmp); statusesOn(op, code, false, side == 0)&Transient != 0 {
					return true
				}
			}
		}
	}
	return false
}

// boolSense tells what fn's only result, a bool, says about the work it did, from its returns
// (each a constant, or the result of another function of the package of this kind, past the
// failures found on the way to it: pastFailure): an "ok" flag, false only where a test of a
// call's error found it set (c, err := dial(); if err != nil { return false }) and true on some way out that
// no such failure dominates (func (h *host) connect() bool); or a "try again" flag, true only
// past such a failure and false on some way that found none (func (t *target) attempt() bool:
// send, and on a send error return true; return false once the stream ended cleanly), where a
// false past a failure is a failure not worth trying again (a cancellation).
func boolSense(fn *ssa.Function) (trueFails, ok bool) {
	var past flagTally
	known := true
	seen := make(map[*ssa.Function]bool)
	var visit func(fn *ssa.Function, failed bool, depth int)
	visit = func(fn *ssa.Function, failed bool, depth int) {
		if fn == nil || seen[fn] || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 || !typeis.Bool(fn.Signature.Results().At(0).Type()) {
			known = false
			return
		}
		seen[fn] = true
		for ret := range flow.Returns(fn) {
			if ret.Block() == fn.Recover || len(ret.Results) != 1 {
				continue
			}
			failed := failed || pastFailure(ret.Block())
			v := stored(ret.Results[0])
			if c, isCall := v.(*ssa.Call); isCall && depth < 3 {
				if callee := c.Call.StaticCallee(); callee != nil && callee.Pkg == fn.Pkg {
					visit(callee, failed, depth+1) // return t.onStream(...)
					continue
				}
			}
			f, isConst := flow.BoolConst(v)
			if !isConst {
				known = false // computed: its sense is not in the returns
				return
			}
			past.note(f, failed)
		}
	}
	visit(fn, false, 0)
	switch {
	case !known:
		return false, false
	case past.ok():
		return false, true
	case past.tryAgain():
		return true, true
	}
	return false, false
}

// stored returns what a load of a local slot reads when the slot was last written in the
// load's own block with no call or deferred function run in between (a result slot under a
// defer: *t0 = true; jump; ...; t8 = *t0), else v. Unlike flow.StoredBefore it does not fall
// back to every store of the slot: a flag's sense must come from the way out at hand.
func stored(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || load.Block() == nil {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	instrs := load.Block().Instrs
	i := slices.Index(instrs, ssa.Instruction(load))
	for j := i - 1; j >= 0; j-- {
		if st, ok := instrs[j].(*ssa.Store); ok && st.Addr == slot {
			return st.Val
		}
		switch instrs[j].(type) {
		case ssa.CallInstruction:
			return v // a call may write the slot (a pointer passed on)
		case *ssa.RunDefers:
			if defersWriter(slot) {
				return v // defer func() { retry = err == nil }(): the deferred closure decides
			}
		}
	}
	return v
}

// defersWriter reports whether slot's function defers a closure that captures slot, and so
// may write it after the return statement set it.
func defersWriter(slot *ssa.Alloc) bool {
	for _, b := range slot.Parent().Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok && slices.Contains(mc.Bindings, ssa.Value(slot)) {
				return true
			}
		}
	}
	return false
}

// errorOf returns the last result of call as the caller sees it (the call's value, or its
// last Extract): the error, when the callee returns one; nil for go and defer, or when the
// caller leaves that result unused.
func errorOf(call ssa.CallInstruction) ssa.Value {
	v := call.Value()
	if v == nil {
		return nil
	}
	tuple, ok := v.Type().(*types.Tuple)
	if !ok {
		return v
	}
	for _, r := range *v.Referrers() {
		if ex, ok := r.(*ssa.Extract); ok && ex.Index == tuple.Len()-1 {
			return ex
		}
	}
	return nil
}

// GivesUpInto reports whether s, a loop nested in the loop of scope outer in the same
// function, can leave its loop, other than from the success side of a test of its decisive
// call, into outer's loop: only then does outer go round after s gave up, and their attempts
// multiply. A reconnect loop that leaves toward the outer loop only once it reconnected, and
// returns when it gives up, lets the outer loop resume; it multiplies nothing. True when the
// model cannot tell.
func (s *Scope) GivesUpInto(outer *Scope) bool {
	if s.Loop == nil || outer.Loop == nil || s.Fn == nil || s.Fn != outer.Fn || s.Decisive == nil || !outer.Loop.Contains(s.Loop.Header) {
		return true
	}
	var ds []decision
	for _, d := range decisions(s.Fn, s.Loop.Contains) {
		if d.call == s.Decisive {
			ds = append(ds, d)
		}
	}
	if len(ds) == 0 {
		return true
	}
	// onSuccess: b is reached only from the success side of a test of the decisive call.
	onSuccess := func(e loops.Edge) bool {
		for _, d := range ds {
			ok := d.block.Succs[d.success]
			if e.From == d.block && e.To == ok || len(ok.Preds) == 1 && ok.Dominates(e.From) {
				return true
			}
		}
		return false
	}
	for _, b := range s.Loop.Blocks(s.Fn) {
		for _, to := range b.Succs {
			if e := (loops.Edge{From: b, To: to}); !s.Loop.Contains(to) && outer.Loop.Contains(to) && !onSuccess(e) {
				return true
			}
		}
	}
	return false
}

// stopError reports whether v is an error made from a value of one of the types stops.
func stopError(v ssa.Value, stops []string) bool {
	mi, ok := v.(*ssa.MakeInterface)
	return ok && slices.Contains(stops, types.TypeString(mi.X.Type(), nil))
}

// madeStop reports whether the struct that addr points to becomes an error of one of the
// types stops: the pointer itself (&Permanent{Err: err}) or the value loaded from it
// (Fatal{Underlying: err}).
func madeStop(addr ssa.Value, stops []string) bool {
	if len(stops) == 0 || addr.Referrers() == nil {
		return false
	}
	for _, r := range *addr.Referrers() {
		switch r := r.(type) {
		case *ssa.MakeInterface:
			if stopError(r, stops) {
				return true
			}
		case *ssa.UnOp:
			if r.Op != token.MUL || r.Referrers() == nil {
				continue
			}
			for _, rr := range *r.Referrers() {
				if mi, ok := rr.(*ssa.MakeInterface); ok && stopError(mi, stops) {
					return true
				}
			}
		}
	}
	return false
}

// dropsResult reports whether nothing call returns is used (a log line), so an error handed
// to it does not come back out of it: dropped, and not a builtin (append puts it somewhere).
func dropsResult(call ssa.CallInstruction) bool {
	_, builtin := call.Common().Value.(*ssa.Builtin)
	return !builtin && dropped(call)
}
