package retryscope

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Backoffs that refuse: a wait helper that can hand back an error without waiting (its sleep
// budget or count is spent: tikv's Backoffer.Backoff) holds a stop policy of its own. A loop
// that leaves when that helper's error is not nil is capped by the helper, as one that leaves
// on a verdict the model cannot read is (opaqueExit): its number of attempts is unknown, not
// unbounded.

// refuses reports whether fn, a function that waits (its waits ss and unknown), returns an
// error on some path from its entry that passes none of its waits, or returns the error of a
// waiting callee that refuses. An error from its context's end is not a refusal: a loop's
// deadline is its context's, judged on its own.
func (st *state) refuses(fn *ssa.Function, ss []Sleep, unknown []ssa.Instruction) bool {
	res := fn.Signature.Results()
	if res.Len() == 0 || !typeis.ErrorLike(res.At(res.Len()-1).Type()) || len(fn.Blocks) == 0 {
		return false
	}
	waits := make(map[*ssa.BasicBlock]bool)
	for _, s := range ss {
		waits[s.Call.Block()] = true
		if s.At != nil {
			waits[s.At.Block()] = true
		}
	}
	for _, u := range unknown {
		waits[u.Block()] = true
	}
	// Blocks reached from the entry without passing a wait.
	free := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if free[b] || waits[b] {
			continue
		}
		free[b] = true
		stack = append(stack, b.Succs...)
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		errv := ret.Results[len(ret.Results)-1]
		if free[b] && mayBeNonNil(errv) && !fromContextEnd(errv, b) {
			return true
		}
		if st.refusingWait(errv) {
			return true
		}
	}
	return false
}

// refusingWait reports whether err is the error of a call of a waiting function that refuses.
func (st *state) refusingWait(err ssa.Value) bool {
	found := false
	flow.Backward(err, 8, func(x ssa.Value) bool {
		if e, ok := x.(*ssa.Extract); ok {
			x = e.Tuple
		}
		call, ok := x.(*ssa.Call)
		if !ok {
			return !found
		}
		if w := st.calleeWaits(call); w != nil && w.Refuses {
			found = true
		}
		return false
	})
	return found
}

// refusedExit reports whether loop l can be left on the non-nil error of a waiting call in
// the loop whose callee refuses (see refuses).
func (st *state) refusedExit(fn *ssa.Function, l *loops.Loop) bool {
	for ifInstr := range exitTests(fn, l) {
		errv, nilSide := testedError(ifInstr)
		if errv == nil {
			continue
		}
		if exit := exitSide(ifInstr.Block(), l); exit >= 0 && exit != nilSide && st.refusingWait(errv) {
			return true
		}
	}
	return false
}

// mayBeNonNil reports whether v, an error, is not the constant nil (nor a phi of nils only).
func mayBeNonNil(v ssa.Value) bool {
	if phi, ok := v.(*ssa.Phi); ok {
		for _, e := range phi.Edges {
			if !flow.IsNil(e) {
				return true
			}
		}
		return false
	}
	return !flow.IsNil(v)
}

// fromContextEnd reports whether err, returned in block b, is a context's Err(), or b is
// reached only on a context's end (the side of a test of ctx.Err(), or a select's case
// receiving from ctx.Done(), that dominates it).
func fromContextEnd(err ssa.Value, b *ssa.BasicBlock) bool {
	ctxErr := false
	flow.Backward(err, 8, func(x ssa.Value) bool {
		if contextErr(x) {
			ctxErr = true
		}
		_, isCall := x.(*ssa.Call)
		return !ctxErr && !isCall || isWrap(x)
	})
	if ctxErr {
		return true
	}
	for ifInstr, side := range flow.TestsAbove(b) {
		if side >= 0 && onContextEnd(ifInstr, side) {
			return true
		}
	}
	return false
}

// isWrap reports whether x is a call that wraps an error it is handed (fmt.Errorf with %w,
// errors.WithStack, errors.Wrap): its result is that error's.
func isWrap(x ssa.Value) bool {
	call, ok := x.(*ssa.Call)
	if !ok {
		return false
	}
	sig := call.Call.Signature()
	if sig.Results().Len() != 1 || !typeis.ErrorLike(sig.Results().At(0).Type()) {
		return false
	}
	for _, a := range call.Call.Args {
		if _, isIface := a.Type().Underlying().(*types.Interface); isIface && typeis.ErrorLike(a.Type()) {
			return true
		}
	}
	return false
}
