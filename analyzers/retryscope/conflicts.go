package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// ConflictDone reports whether the program takes a 409 Conflict answer to call as done: the
// function that makes it does (conflictTaken), or hands call's error back unchanged and every
// call of it in the package does (a client's CreateDirectory whose callers treat a 409 as "it
// exists").
func (r *Result) ConflictDone(call ssa.CallInstruction) bool {
	if conflictTaken(call) {
		return true
	}
	fn := call.Parent()
	if fn == nil || !handsBackError(fn, call) {
		return false
	}
	if r.callers == nil {
		r.callers = make(map[*ssa.Function][]ssa.CallInstruction)
		for _, f := range r.funcs {
			for in := range flow.Calls(f) {
				if callee := in.Common().StaticCallee(); callee != nil {
					r.callers[callee] = append(r.callers[callee], in)
				}
			}
		}
	}
	sites := r.callers[fn]
	return len(sites) > 0 && !slices.ContainsFunc(sites, func(site ssa.CallInstruction) bool { return !conflictTaken(site) })
}

// handsBackError reports whether fn returns call's error itself (return "", err), as its own
// last result, somewhere.
func handsBackError(fn *ssa.Function, call ssa.CallInstruction) bool {
	v := call.Value()
	if v == nil {
		return false
	}
	seen := make(map[*ssa.Alloc]bool) // (err = *slot; *slot = err: a slot stored from itself)
	var isErr func(r ssa.Value) bool
	isErr = func(r ssa.Value) bool {
		switch r := flow.Unwrap(r).(type) {
		case *ssa.Extract:
			t, ok := v.Type().(*types.Tuple)
			return ok && r.Tuple == v && r.Index == t.Len()-1
		case *ssa.UnOp:
			// A function with defers returns what its return statements stored in its results.
			slot, ok := r.X.(*ssa.Alloc)
			if !ok || r.Op != token.MUL || seen[slot] {
				return false
			}
			seen[slot] = true
			for _, ref := range *slot.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Addr == slot && isErr(st.Val) {
					return true
				}
			}
			return false
		default:
			return r == v
		}
	}
	for ret := range flow.Returns(fn) {
		if n := len(ret.Results); n > 0 && typeis.ErrorLike(ret.Results[n-1].Type()) && isErr(ret.Results[n-1]) {
			return true
		}
	}
	return false
}

// conflictTaken reports whether the function that makes call takes a 409 Conflict answer to it
// as success: a test singles out 409, of the status of the response call returned or of a
// status field of a type its error was asserted to (e.Status == 409 after err.(APIError)), and
// every return on the side where it matched hands back a nil error. The server refuses a
// second copy of what the request creates (a folder of that name exists), and the program
// takes the refusal as done: a create made idempotent by the name the client chose.
func conflictTaken(call ssa.CallInstruction) bool {
	fn := call.Parent()
	if fn == nil || len(fn.Blocks) == 0 || !typeis.ReturnsError(fn.Signature) {
		return false
	}
	all := func(*ssa.BasicBlock) bool { return true }
	for _, b := range fn.Blocks {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok || b.Succs[0] == b.Succs[1] {
			continue
		}
		cmp, ok := unNot(ifInstr.Cond).(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			continue
		}
		match := countNots(ifInstr.Cond) % 2
		if cmp.Op == token.NEQ {
			match = 1 - match
		}
		switch resp, _, code, ok := statusCompare(cmp); {
		case ok && code == 409 && producer(resp, all) == call:
		case conflictField(cmp) && typedFrom(cmp, call, all):
		default:
			continue
		}
		if nilErrorsFrom(b.Succs[match]) {
			return true
		}
	}
	return false
}

// conflictField reports whether cmp compares an integer field holding an HTTP status with 409.
func conflictField(cmp *ssa.BinOp) bool {
	_, _, code, ok := fieldCompare(cmp)
	return ok && code == 409
}

// nilErrorsFrom reports whether every return reachable from b hands back a nil error (its last
// result), and one is reachable.
func nilErrorsFrom(b *ssa.BasicBlock) bool {
	found := false
	for x := range flow.Forward([]*ssa.BasicBlock{b}, nil) {
		ret, ok := lastInstr(x).(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 || !flow.IsNil(flow.Unwrap(ret.Results[len(ret.Results)-1])) {
			return false
		}
		found = true
	}
	return found
}
