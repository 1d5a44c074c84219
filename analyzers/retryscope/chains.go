package retryscope

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Chains: loops whose rounds work on what the previous round led to.

// chained reports whether a, an argument (or the receiver) of call, is computed from a value
// carried from one round to the next and renewed from call's own results (task = next(response
// of call); err = cause.Cause() of the err before), or from itself (name = name[:i], a walk up
// a tree): each round works on what the previous one led to.
func chained(a ssa.Value, call ssa.CallInstruction, l *loops.Loop) bool {
	if call.Value() == nil {
		return false
	}
	var phis []*ssa.Phi
	flow.Backward(a, 32, func(x ssa.Value) bool {
		if phi, ok := x.(*ssa.Phi); ok {
			if phi.Block() == l.Header {
				phis = append(phis, phi)
			}
			return false
		}
		call, isCall := x.(*ssa.Call)
		return !isCall || flow.Computes(flow.ID(flow.Callee(call.Common()))) // a path formatted from the page: fmt.Sprintf("%s?offset=%d", base, next)
	})
	for _, phi := range phis {
		for i, e := range phi.Edges {
			if i >= len(l.Header.Preds) || !l.Contains(l.Header.Preds[i]) || e == phi {
				continue
			}
			renewed, walks := false, false
			flow.Backward(e, 128, func(x ssa.Value) bool {
				if c, ok := x.(*ssa.Call); ok && judgesFailure(c, call) {
					return false // the next host a retry policy picks (u, again := checkRetry(u, resp, err))
				}
				renewed = renewed || x == call.Value()
				return !renewed && x != phi
			})
			// Or renewed from itself without a call (sname = sname[:i], n = n.parent): a walk
			// over smaller data.
			walks = derivedFrom(e, phi, false, 0, make(map[ssa.Value]bool))
			if renewed || walks && !typeis.Integer(phi.Type()) {
				return true
			}
		}
	}
	return false
}

// judgesFailure reports whether c is a retry policy's verdict on call's outcome: it is handed
// call's error and returns a bool among its results. What else it returns (another host, a
// delay) is the retry's next step, not the next item of a sequence.
func judgesFailure(c *ssa.Call, call ssa.CallInstruction) bool {
	if !slices.ContainsFunc(tupleTypes(c), typeis.Bool) {
		return false
	}
	for _, a := range c.Call.Args {
		if ex, ok := flow.Unwrap(a).(*ssa.Extract); ok && ex.Tuple == call.Value() && typeis.ErrorLike(ex.Type()) {
			return true
		}
	}
	return false
}

// derivedFrom reports whether v is computed from phi by some operation other than phis and
// calls (sname[:i], n.parent): a value passed round unchanged on some path (req, or a clone of
// it on another) is the same value, not a step of a walk.
func derivedFrom(v ssa.Value, phi *ssa.Phi, viaOp bool, depth int, seen map[ssa.Value]bool) bool {
	if v == phi {
		return viaOp
	}
	if seen[v] || depth > 32 {
		return false
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Call:
		return false
	case *ssa.Phi:
		for _, e := range x.Edges {
			if derivedFrom(e, phi, viaOp, depth+1, seen) {
				return true
			}
		}
		return false
	case ssa.Instruction:
		for _, op := range x.Operands(nil) {
			if op != nil && *op != nil && derivedFrom(*op, phi, true, depth+1, seen) {
				return true
			}
		}
	}
	return false
}
