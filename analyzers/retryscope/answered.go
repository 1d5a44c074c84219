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

// answeredAtOnce reports whether the error that a test singles out of call's error (target:
// the type assertion, the errors.As target, or the sentinel errors.Is compares with) is one
// that call's callee, a function of this package, makes only from an answer and returns at
// once: every place it makes one comes, in the same round of any loop around it, after a
// call of its succeeded (the nil side of that call's error test), and cannot go round. A
// layer that goes round on it repeats a completed exchange ("transaction not found yet"),
// not a failure a layer under it retried.
func answeredAtOnce(call ssa.CallInstruction, target ssa.Value) bool {
	callee := call.Common().StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 {
		return false
	}
	makes := madeIn(callee, target)
	if len(makes) == 0 {
		return false
	}
	ls := loops.Of(callee)
	for _, b := range makes {
		if !afterSuccess(b, ls) {
			return false
		}
	}
	return true
}

// madeIn returns the blocks of fn that make the error target stands for: a value of the
// asserted or errors.As target's type turned into an error, or a load of the sentinel.
func madeIn(fn *ssa.Function, target ssa.Value) []*ssa.BasicBlock {
	var t types.Type
	var sentinel *ssa.Global
	switch x := flow.Unwrap(target).(type) {
	case *ssa.TypeAssert:
		t = x.AssertedType
	case *ssa.Alloc: // errors.As(err, &e): e's type
		t = x.Type().(*types.Pointer).Elem()
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
			sentinel = g
		}
	}
	if t == nil && sentinel == nil {
		return nil
	}
	var out []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.MakeInterface:
				if t != nil && types.Identical(x.X.Type(), t) {
					out = append(out, b)
				}
			case *ssa.UnOp:
				if sentinel != nil && x.X == sentinel && x.Op == token.MUL {
					out = append(out, b)
				}
			}
		}
	}
	return out
}

// afterSuccess reports whether block b is reached only after a call succeeded (the nil side of
// a test of its error dominates b) in the same round of every loop of ls around b, and cannot
// go round from b; not after a test of an HTTP status (resp.StatusCode >= 300), whose failure
// a client under the call may have retried before it handed the answer back, nor on the
// failure side of a call (an error made from a transport failure).
func afterSuccess(b *ssa.BasicBlock, ls []*loops.Loop) bool {
	var around []*loops.Loop
	for _, l := range ls {
		if l.Contains(b) {
			if l.CanRepeat(b) {
				return false
			}
			around = append(around, l)
		}
	}
	for ifInstr, side := range flow.TestsAbove(b) {
		if readsStatus(ifInstr.Cond) {
			return false // an answer's status (a 5xx turned into an error): a layer under may have retried it
		}
		errv, nilSide := testedError(ifInstr)
		if errv == nil || !fromCall(errv) {
			continue
		}
		if side >= 0 && side != nilSide {
			return false // made from a failure (resp, err := Do(req); if err != nil { return ErrX })
		}
		d := ifInstr.Block()
		inRound := true
		for _, l := range around {
			inRound = inRound && l.Contains(d)
		}
		if inRound {
			return true
		}
	}
	return false
}

// fromCall reports whether err is a result of a call, or of one of the calls that the ways
// into a merge made (err = dialTLS(...) on one branch, err = dial(...) on the other).
func fromCall(err ssa.Value) bool {
	return fromCalls(err, 0)
}

func fromCalls(err ssa.Value, depth int) bool {
	switch x := flow.Unwrap(err).(type) {
	case *ssa.Extract:
		_, ok := x.Tuple.(*ssa.Call)
		return ok
	case *ssa.Call:
		return true
	case *ssa.Phi:
		if depth > 4 {
			return false
		}
		n := 0
		for _, e := range x.Edges {
			if e == x {
				continue
			}
			if !fromCalls(e, depth+1) {
				return false
			}
			n++
		}
		return n > 0
	}
	return false
}

// readsStatus reports whether cond reads an HTTP response's status (statusOf).
func readsStatus(cond ssa.Value) bool {
	found := false
	flow.Backward(cond, 16, func(x ssa.Value) bool {
		if statusOf(x) != nil {
			found = true
		}
		_, isCall := x.(*ssa.Call)
		return !found && !isCall
	})
	return found
}

// answeredCallback reports whether s, a retry library's callback, goes round only on an
// answer: each call it makes that can leave the process and fail has its error marked
// permanent, or handed back to the helper only on the side of a test that singles out a "not
// found" answer (if apierrors.IsNotFound(err) { return err }; return backoff.Permanent(err)).
// The helper waits for the object to appear (in a cache that answers for the server, or on
// the server): it polls a state, it does not retry a failure.
func answeredCallback(s *Scope, reach func(ssa.CallInstruction) remote.Reach) bool {
	if s.Kind != Callback || s.Inferred || s.Fn == nil {
		return false
	}
	found := false
	for _, c := range s.Calls {
		if _, started := c.(*ssa.Go); started || !fallible(c) || reach(c) == remote.ReachLocal {
			continue
		}
		if c.Parent() != s.Fn {
			return false
		}
		if s.marksFailure(c) {
			continue
		}
		on, ok := callbackRetriesOn(s.Fn, c, s.helperMarks)
		if !ok || on == 0 || on&^(FailNotFound|FailAnswered) != 0 {
			return false
		}
		found = true
	}
	return found
}

// callbackRetriesOn says which failures of call, made by retry callback fn, its helper goes
// round on: each return of fn that hands back call's error unmarked (not wrapped in
// backoff.Permanent) lies on the side of a test that singles some out, and those are the
// failures. ok is false when a return hands back another error, or call's with no such test
// above it.
func callbackRetriesOn(fn *ssa.Function, call ssa.CallInstruction, marks []flow.FuncID) (on Failures, ok bool) {
	for ret := range flow.Returns(fn) {
		if len(ret.Results) == 0 {
			continue
		}
		v := ret.Results[len(ret.Results)-1]
		if !typeis.ErrorLike(v.Type()) || flow.IsNil(v) || permanentMark(v, marks) {
			continue
		}
		if producer(v, all) != call {
			return 0, false
		}
		found := false
		for ifInstr, side := range flow.TestsAbove(ret.Block()) {
			match := countNots(ifInstr.Cond) % 2 // the side where the test holds
			if side != match {
				continue
			}
			if kinds, ok := singledOut(unNot(ifInstr.Cond), call, all, ifInstr.Block().Succs[match], nil); ok {
				on |= kinds
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	return on, true
}

// permanentMark reports whether v is an error a library's mark made (backoff.Permanent(err)),
// or one of the helper's own marks.
func permanentMark(v ssa.Value, marks []flow.FuncID) bool {
	c, ok := flow.Unwrap(v).(*ssa.Call)
	if !ok {
		return false
	}
	return stopMark(flow.ID(flow.Callee(c.Common())), marks)
}

// readModifyWrite reports whether loop s writes, with its decisive call, what another call of
// the same round read (the errors it singles out of the write are the module's own, not a
// library's that may mean a transient failure, driver.ErrBadConn): a call that may leave the process, made before the decisive one on
// every way to it, whose result the decisive call is handed, and whose failure leaves the
// loop. Going round on an error of the program's own from the write (a lost compare-and-swap,
// ErrKeyModified) then follows an answer: the dependency answered the read this round, and
// the next round reads again and sends another write. It does not retry a failure.
func (st *state) readModifyWrite(s *Scope, reach func(ssa.CallInstruction) remote.Reach) bool {
	w := s.Decisive
	if s.Loop == nil || w == nil || !st.ownErrorsOnly(s) {
		return false
	}
	ds := decisions(s.Fn, s.Loop.Contains)
	for _, r := range s.Calls {
		if r == w || r.Parent() != s.Fn || !fallible(r) || reach(r) == remote.ReachLocal {
			continue
		}
		if r.Block() == w.Block() || !r.Block().Dominates(w.Block()) || !handedOn(r, w) {
			continue
		}
		tested, leaves := false, true
		for _, d := range ds {
			if d.call == r {
				tested = true
				leaves = leaves && !s.Loop.CanRepeat(d.block.Succs[1-d.success])
			}
		}
		if tested && leaves {
			return true
		}
	}
	return false
}

// ownErrorsOnly reports whether every package error variable that loop s compares its
// decisive call's error with is declared in the module analysed.
func (st *state) ownErrorsOnly(s *Scope) bool {
	for _, b := range s.Loop.Blocks(s.Fn) {
		ifInstr, ok := last(b).(*ssa.If)
		if !ok {
			continue
		}
		target, ok := singlesOut(unNot(ifInstr.Cond), s.Decisive, s.Loop.Contains)
		if !ok {
			continue
		}
		load, ok := flow.Unwrap(target).(*ssa.UnOp)
		if !ok {
			continue
		}
		if g, ok := load.X.(*ssa.Global); ok && g.Pkg != nil && remote.OtherModule(st.pass.Module, g.Pkg.Pkg.Path()) {
			return false
		}
	}
	return true
}

// polledCallback reports whether s, a retry callback, goes round only after its remote calls
// answered: each return that hands its helper an error to go round on (unmarked) is on the
// side of the tests that found every remote call's error nil, and is made of none of those
// errors (retries.Continues(details.StateMessage): the state the answer reports is not the
// one awaited). A remote call's own failure is marked permanent, or handed back nowhere.
// The helper waits for a state: it polls, it does not retry a failure.
func polledCallback(s *Scope, reach func(ssa.CallInstruction) remote.Reach) bool {
	if s.Kind != Callback || s.Fn == nil {
		return false
	}
	var calls []ssa.CallInstruction
	for _, c := range s.Calls {
		if _, started := c.(*ssa.Go); started || !fallible(c) || reach(c) == remote.ReachLocal {
			continue
		}
		if c.Parent() != s.Fn {
			return false
		}
		calls = append(calls, c)
	}
	if len(calls) == 0 {
		return false
	}
	round := false
	for ret := range flow.Returns(s.Fn) {
		if len(ret.Results) == 0 {
			continue
		}
		v := ret.Results[len(ret.Results)-1]
		if !typeis.ErrorLike(v.Type()) || flow.IsNil(v) || permanentMark(v, s.helperMarks) {
			continue
		}
		if failureOf(v, calls) {
			return false // a remote call's failure, handed back to go round on
		}
		for _, c := range calls {
			if !answeredBy(ret.Block(), c) {
				return false
			}
		}
		round = true
	}
	return round
}

// failureOf reports whether v is made from the error a call of calls returned (or from what
// the walk cannot follow: a parameter, a variable, a captured value).
func failureOf(v ssa.Value, calls []ssa.CallInstruction) bool {
	seen := make(map[ssa.Value]bool)
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if v == nil || seen[v] {
			return false
		}
		if depth > 12 {
			return true
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Const, *ssa.Function:
			return false
		case *ssa.Extract:
			if c, ok := x.Tuple.(ssa.CallInstruction); ok && slices.Contains(calls, c) {
				return typeis.ErrorLike(x.Type())
			}
			return walk(x.Tuple, depth+1)
		case *ssa.Call:
			if slices.Contains(calls, ssa.CallInstruction(x)) {
				return typeis.ErrorLike(x.Type())
			}
			for _, a := range x.Call.Args {
				if walk(a, depth+1) {
					return true
				}
			}
			return false
		case *ssa.Alloc:
			// A variable, or the array of a variadic call (fmt.Errorf's arguments): what is
			// stored in it, closures included.
			for _, st := range flow.StoredWithClosures(x) {
				if walk(st, depth+1) {
					return true
				}
			}
			return false
		case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
			// From outside the callback: an error (or a value that may hold one) kept there
			// may be one of the calls' failures.
			t := x.Type()
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			return types.IsInterface(t) || typeis.ErrorLike(t)
		case ssa.Instruction:
			var ops []*ssa.Value
			for _, op := range x.Operands(ops) {
				if op != nil && walk(*op, depth+1) {
					return true
				}
			}
			return false
		}
		return true
	}
	return walk(v, 0)
}

// answeredBy reports whether block b runs only once call's error was found nil (b lies on the
// nil side of a test of it), and after no test of an HTTP status (a 5xx turned into an
// error, which a client under the call may have retried).
func answeredBy(b *ssa.BasicBlock, call ssa.CallInstruction) bool {
	found := false
	for ifInstr, side := range flow.TestsAbove(b) {
		if readsStatus(ifInstr.Cond) {
			return false
		}
		x, nilSide := testedError(ifInstr)
		if x == nil || side != nilSide {
			continue
		}
		switch e := flow.Unwrap(x).(type) {
		case *ssa.Extract:
			found = found || call.Value() != nil && e.Tuple == call.Value()
		case *ssa.Call:
			found = found || ssa.CallInstruction(e) == call
		}
	}
	return found
}
