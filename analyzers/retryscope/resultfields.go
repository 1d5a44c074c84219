package retryscope

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// fieldVerdict reads cond, a load of a bool field of a struct that a call made in the blocks
// for which in holds returned (its pointer, alone or beside an error), as that call's verdict
// (result, err := runTask(t); if result.Success { break }): the call and the successor taken
// on success; nil when the field's sense is not known (see fieldSense: a Done decoded from
// the answer shows none).
func fieldVerdict(cond ssa.Value, in func(*ssa.BasicBlock) bool) (ssa.CallInstruction, int) {
	_, fa := flow.FieldLoad(cond)
	if fa == nil || !typeis.Bool(cond.Type()) {
		return nil, 0
	}
	call, index := flow.CallResult(fa.X)
	if call == nil || !in(call.Block()) {
		return nil, 0
	}
	trueFails, ok := fieldSense(call.Call.StaticCallee(), index, fa.Field)
	if !ok {
		return nil, 0
	}
	if trueFails {
		return call, 1
	}
	return call, 0
}

// fieldSense reports in which sense fn, a function of the package, sets field of the struct
// whose address is its result res. It is known when one value is stored past a failure (a
// send's error, a status past 400: pastFailure), the other never is and is stored on a way
// that found none (false set up front and true on a match, as a table of accepted statuses
// does, still tells); or when the field is set to err == nil. ok is false when a store is
// computed from anything else, or there is none. The struct may be made in fn or in a
// function of the package whose result fn returns. (flagSense reads a returned flag so, with
// an error beside it; a field's verdict needs none.)
func fieldSense(fn *ssa.Function, res, field int) (trueFails, ok bool) {
	if fn == nil || len(fn.Blocks) == 0 || res >= fn.Signature.Results().Len() {
		return false, false
	}
	var failedWith, cleanWith [2]bool
	known, stores := true, 0
	record := func(f, failed bool) {
		v := 0
		if f {
			v = 1
		}
		if failed {
			failedWith[v] = true
		} else {
			cleanWith[v] = true
		}
	}
	// judge reads a value stored into the field in block at.
	var judge func(v ssa.Value, at *ssa.BasicBlock, failed bool, depth int)
	judge = func(v ssa.Value, at *ssa.BasicBlock, failed bool, depth int) {
		v = flow.Unwrap(stored(v))
		failed = failed || pastFailure(at)
		if f, isConst := flow.BoolConst(v); isConst {
			record(f, failed)
			return
		}
		switch x := v.(type) {
		case *ssa.Phi:
			if depth < 4 {
				for i, e := range x.Edges {
					judge(e, x.Block().Preds[i], failed, depth+1)
				}
				return
			}
		case *ssa.BinOp:
			// result.Success = err == nil: true where the call did not fail.
			if errv, eq := nilTest(x); errv != nil && fromCall(errv) {
				record(eq, false)
				record(!eq, true)
				return
			}
		}
		known = false
	}
	// visit follows a returned pointer to the structs it may address.
	var visit func(fn *ssa.Function, v ssa.Value, depth int)
	visit = func(fn *ssa.Function, v ssa.Value, depth int) {
		v = flow.Unwrap(stored(v))
		switch x := v.(type) {
		case *ssa.Const:
			return // a nil result: no struct
		case *ssa.Phi:
			if depth < 4 {
				for _, e := range x.Edges {
					visit(fn, e, depth+1)
				}
				return
			}
		case *ssa.Alloc:
			if x.Heap {
				for _, r := range *x.Referrers() {
					switch r := r.(type) {
					case *ssa.FieldAddr, *ssa.Return, *ssa.Phi, *ssa.DebugRef:
					case *ssa.Store:
						if slot, ok := r.Addr.(*ssa.Alloc); !ok || slot.Heap {
							known = false // stored where another may set it
						} // (a result slot, under a defer)
					default:
						known = false // handed to a call: it may set the field
					}
					if fa, isFA := r.(*ssa.FieldAddr); isFA && fa.Field == field {
						for _, u := range *fa.Referrers() {
							if st, isStore := u.(*ssa.Store); isStore && st.Addr == fa {
								stores++
								judge(st.Val, st.Block(), false, 0)
							}
						}
					}
				}
				return
			}
		default:
			if c, i := flow.CallResult(v); c != nil && depth < 4 {
				callee := c.Call.StaticCallee()
				if callee != nil && callee != fn && callee.Pkg == fn.Pkg && len(callee.Blocks) > 0 {
					for ret := range flow.Returns(callee) {
						if ret.Block() != callee.Recover && i < len(ret.Results) {
							visit(callee, ret.Results[i], depth+1)
						}
					}
					return
				}
			}
		}
		known = false
	}
	for ret := range flow.Returns(fn) {
		if ret.Block() != fn.Recover && res < len(ret.Results) {
			visit(fn, ret.Results[res], 0)
		}
	}
	if !known || stores == 0 {
		return false, false
	}
	switch {
	case failedWith[0] && !failedWith[1] && cleanWith[1]:
		return false, true
	case failedWith[1] && !failedWith[0] && cleanWith[0]:
		return true, true
	}
	return false, false
}

// nilTest reads cmp as err == nil (eq) or err != nil, returning err; nil when it is neither.
func nilTest(cmp *ssa.BinOp) (errv ssa.Value, eq bool) {
	if cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil, false
	}
	x, y := cmp.X, cmp.Y
	if flow.IsNil(x) {
		x, y = y, x
	}
	if !flow.IsNil(y) || !flow.IsError(x) {
		return nil, false
	}
	return x, cmp.Op == token.EQL
}
