package retryscope

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
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
