package retryscope

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// A retry count handed in by the caller: execute(ctx, req, retries) calls itself with
// retries-1, MakeRequest(ctx, FullRequest{MaxAttempts: 1}) hands execute params.MaxAttempts-1.
// A caller that hands a count that leaves no retry (MaxAttempts: 1: "this endpoint answers
// 50x on purpose, don't retry") does not retry through the call: issue 30's "a layer retries
// only if its configuration lets it", per call.

// A handedCount says where a function's retry count comes from: its parameter Param (receiver
// included), or the field Field of it (-1: the parameter itself), plus Offset: the retries left
// after the first attempt.
type handedCount struct {
	Param, Field, Offset int
}

// recursionCount returns the parameter a retrying recursion counts down (passed to itself, or
// through its helper, minus a constant).
func recursionCount(fn *ssa.Function) (handedCount, bool) {
	for c := range flow.Calls(fn) {
		call, ok := c.(*ssa.Call)
		if !ok {
			continue
		}
		i, op := -1, token.ILLEGAL
		if call.Common().StaticCallee() == fn {
			i, op = countedParam(fn, call)
		} else if back := callsBack(fn, call); back != nil {
			i, op = countedVia(fn, call, back)
		}
		if i >= 0 && op == token.SUB {
			return handedCount{Param: i, Field: -1}, true
		}
	}
	return handedCount{}, false
}

// handedAt says what call hands a callee whose count is h: the retries it leaves (known when
// a constant decides them), or, when the count comes from the caller's own parameter (or a
// field of it), the caller's handedCount.
func handedAt(call ssa.CallInstruction, h handedCount) (retries int64, known bool, caller handedCount, passed bool) {
	args := call.Common().Args
	if call.Common().IsInvoke() || h.Param >= len(args) {
		return 0, false, handedCount{}, false
	}
	a := flow.Unwrap(args[h.Param])
	if h.Field >= 0 {
		// A struct handed by value: a composite literal's field, or the caller's parameter.
		load, ok := a.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			if p, ok := a.(*ssa.Parameter); ok {
				return 0, false, handedCount{Param: slices.Index(p.Parent().Params, p), Field: h.Field, Offset: h.Offset}, true
			}
			return 0, false, handedCount{}, false
		}
		if alloc, ok := load.X.(*ssa.Alloc); ok {
			if vals := flow.FieldStores(alloc, h.Field); len(vals) == 1 {
				if n, ok := flow.IntConst(vals[0]); ok && n > 0 {
					return n + int64(h.Offset), true, handedCount{}, false
				}
			}
		}
		return 0, false, handedCount{}, false
	}
	offset := h.Offset
	if bin, ok := a.(*ssa.BinOp); ok && (bin.Op == token.SUB || bin.Op == token.ADD) {
		k, isInt := flow.IntConst(bin.Y)
		if !isInt {
			return 0, false, handedCount{}, false
		}
		if bin.Op == token.SUB {
			k = -k
		}
		offset += int(k)
		a = flow.Unwrap(bin.X)
	}
	switch x := a.(type) {
	case *ssa.Const:
		if n, ok := flow.IntConst(x); ok && n > 0 {
			return n + int64(offset), true, handedCount{}, false
		}
	case *ssa.Parameter:
		return 0, false, handedCount{Param: slices.Index(x.Parent().Params, x), Field: -1, Offset: offset}, true
	case *ssa.UnOp:
		// params.MaxAttempts-1, params the caller's own struct parameter (kept in a local).
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok || x.Op != token.MUL {
			break
		}
		alloc, ok := fa.X.(*ssa.Alloc)
		if !ok {
			break
		}
		for _, v := range flow.Stored(alloc) {
			if p, ok := v.(*ssa.Parameter); ok {
				return 0, false, handedCount{Param: slices.Index(p.Parent().Params, p), Field: fa.Field, Offset: offset}, true
			}
		}
	}
	return 0, false, handedCount{}, false
}
