package retryscope

import (
	"go/token"
	"go/types"
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
// a tree): each round works on what the previous one led to. A value that the failure of
// decision d hands back unchanged is not a chain for d: that way round asks again for the
// same page (for { page, err := list(marker); if err != nil { continue }; ...; marker =
// page.Next } retries a page).
func chained(a ssa.Value, call ssa.CallInstruction, l *loops.Loop, d *decision) bool {
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
		if d != nil && keptOnFailure(phi, *d, l) {
			continue
		}
		for i, e := range phi.Edges {
			if i >= len(l.Header.Preds) || !l.Contains(l.Header.Preds[i]) || e == phi {
				continue
			}
			renewed, walks := false, false
			flow.Backward(e, 128, func(x ssa.Value) bool {
				if c, ok := x.(*ssa.Call); ok && judgesFailure(c, call) {
					return false // the next host a retry policy picks (u, again := checkRetry(u, resp, err))
				}
				renewed = renewed || x == call.Value() || repeats(x, call)
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

// storedChain reports whether a, an argument (or the receiver) of call, is read from a place
// that the loop fills, on every way round from d's failure, with what call returned: a field
// loaded as the argument (w.URL = resp.Header.Get("Location") before dialling w.URL again), or
// a field of the struct a points to (params.NextPageToken = resp.Next). The next round asks
// for what this one's answer pointed to: a redirect or the next page, not the same request.
func storedChain(a ssa.Value, call ssa.CallInstruction, l *loops.Loop, d decision) bool {
	if call.Value() == nil {
		return false
	}
	// same reports whether addr is the place a is read from, or a field of what a points to.
	var same func(addr ssa.Value) bool
	switch x := flow.Unwrap(a).(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		same = func(addr ssa.Value) bool { return flow.SameAddr(addr, x.X) }
	default:
		if _, isPtr := a.Type().Underlying().(*types.Pointer); !isPtr {
			return false
		}
		same = func(addr ssa.Value) bool {
			fa, ok := addr.(*ssa.FieldAddr)
			return ok && fa.X == a
		}
	}
	var stores []*ssa.BasicBlock
	for _, b := range l.Blocks(call.Parent()) {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !same(st.Addr) {
				continue
			}
			renewed := false
			flow.Backward(st.Val, 64, func(x ssa.Value) bool {
				renewed = renewed || x == call.Value()
				return !renewed
			})
			if renewed {
				stores = append(stores, b)
			}
		}
	}
	if len(stores) == 0 {
		return false
	}
	fail, contra := d.block.Succs[1-d.success], contradicts(d)
	return !l.CanRepeatAvoiding(fail, func(e loops.Edge) bool { return slices.Contains(stores, e.To) || contra(e) })
}

// keptOnFailure reports whether d's failure can go round loop l along a back edge that hands
// phi, a value of l's header, back unchanged.
func keptOnFailure(phi *ssa.Phi, d decision, l *loops.Loop) bool {
	fail := d.block.Succs[1-d.success]
	contra := contradicts(d)
	for i, back := range l.Header.Preds {
		if i >= len(phi.Edges) || phi.Edges[i] != phi || !l.Contains(back) {
			continue
		}
		if fail == l.Header {
			if back == d.block {
				return true
			}
			continue
		}
		if l.CanRepeatAvoiding(fail, func(e loops.Edge) bool {
			return e.To == l.Header && e.From != back || contra(e)
		}) {
			return true
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

// repeats reports whether x is another call of what call calls, on the same receiver with the
// same arguments (sameValue: equal constants count) (if c.Cause() == nil { break }; err =
// c.Cause()): its result is call's.
func repeats(x ssa.Value, call ssa.CallInstruction) bool {
	c, ok := x.(*ssa.Call)
	if !ok || c == call.Value() {
		return false
	}
	a, b := c.Common(), call.Common()
	if a.Method != b.Method || a.Value != b.Value || len(a.Args) != len(b.Args) || a.Method == nil && a.StaticCallee() == nil {
		return false
	}
	for i := range a.Args {
		if !sameValue(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}
