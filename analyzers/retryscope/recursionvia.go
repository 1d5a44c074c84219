package retryscope

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Retrying recursion through a helper of the package: execute(ctx, req, retries, backoff)
// calls doRetry(ctx, req, err, retries, backoff) after a failure, and doRetry waits and calls
// execute(ctx, req, retries-1, backoff*2) again. The call of the helper is the way back.

// callsBack returns the call of fn that call's callee, a function of the package, makes with
// the same operation (see sameOperationVia), or nil.
func callsBack(fn *ssa.Function, call *ssa.Call) *ssa.Call {
	g := call.Common().StaticCallee()
	if g == nil || g == fn || g.Pkg != fn.Pkg || len(g.Blocks) == 0 {
		return nil
	}
	for c := range flow.Calls(g) {
		if c.Common().StaticCallee() == g {
			return nil // the helper retries by calling itself: the cycle is its scope, not fn's
		}
	}
	for c := range flow.Calls(g) {
		if back, ok := c.(*ssa.Call); ok && back.Common().StaticCallee() == fn && sameOperationVia(fn, call, back) {
			return back
		}
	}
	return nil
}

// sameOperationVia reports whether back, made by the helper that call calls, repeats fn's
// operation: each argument is the parameter of fn that call handed the helper for it, that
// parameter plus or minus a constant (a count), or a constant; a time.Duration parameter (a
// delay the helper grows) may change as it likes, since what is sent does not depend on it.
func sameOperationVia(fn *ssa.Function, call, back *ssa.Call) bool {
	g := back.Parent()
	args, handed := back.Common().Args, call.Common().Args
	if len(args) != len(fn.Params) {
		return false
	}
	for i, a := range args {
		p := fn.Params[i]
		if typeis.Duration(p.Type()) {
			continue
		}
		x := flow.Unwrap(a)
		if _, isConst := x.(*ssa.Const); isConst {
			continue
		}
		if bin, ok := x.(*ssa.BinOp); ok {
			if _, isInt := flow.IntConst(bin.Y); !isInt || bin.Op != token.ADD && bin.Op != token.SUB {
				return false
			}
			x = flow.Unwrap(bin.X)
		}
		q, ok := x.(*ssa.Parameter)
		if !ok || q.Parent() != g {
			return false
		}
		j := slices.Index(g.Params, q)
		if j < 0 || j >= len(handed) || !flow.SameValue(handed[j], p) && !stepOf(handed[j], p) {
			return false
		}
	}
	return true
}

// stepOf reports whether v is p plus or minus an integer constant (retries-1).
func stepOf(v, p ssa.Value) bool {
	bin, ok := flow.Unwrap(v).(*ssa.BinOp)
	if !ok || bin.Op != token.ADD && bin.Op != token.SUB {
		return false
	}
	_, isInt := flow.IntConst(bin.Y)
	return isInt && flow.SameValue(bin.X, p)
}

// countsVia reports whether back passes on, plus or minus a constant, a parameter of the
// helper that call handed one of fn's parameters in the same place: the helper counts.
func countsVia(fn *ssa.Function, call, back *ssa.Call) bool {
	g, handed := back.Parent(), call.Common().Args
	for i, a := range back.Common().Args {
		bin, ok := flow.Unwrap(a).(*ssa.BinOp)
		if !ok || i >= len(fn.Params) || bin.Op != token.ADD && bin.Op != token.SUB {
			continue
		}
		if _, isInt := flow.IntConst(bin.Y); !isInt {
			continue
		}
		q, ok := flow.Unwrap(bin.X).(*ssa.Parameter)
		if !ok || q.Parent() != g {
			continue
		}
		if j := slices.Index(g.Params, q); j >= 0 && j < len(handed) && flow.SameValue(handed[j], fn.Params[i]) {
			return true
		}
	}
	return false
}

// growsDelayVia marks as backoff the fixed waits of the helpers that the ways back through a
// helper go through, when the helper grows the delay parameter it hands fn again (backoff*2,
// backoff<<1, backoff+backoff/2): the delay changes with the attempts. It reports whether it
// marked one.
func growsDelayVia(fn *ssa.Function, again []retryCall, sleeps []Sleep) bool {
	marked := false
	for _, a := range again {
		if a.back == nil {
			continue
		}
		grows := slices.ContainsFunc(a.back.Common().Args, func(v ssa.Value) bool {
			bin, ok := flow.Unwrap(v).(*ssa.BinOp)
			if !ok || !typeis.Duration(bin.Type()) || bin.Op != token.MUL && bin.Op != token.SHL && bin.Op != token.ADD {
				return false
			}
			fromParam := false // backoff = min(backoff, max); ...; backoff*2
			flow.Backward(bin.X, 16, func(x ssa.Value) bool {
				q, ok := x.(*ssa.Parameter)
				fromParam = fromParam || ok && q.Parent() == a.back.Parent() && typeis.Duration(q.Type())
				return !fromParam
			})
			return fromParam
		})
		for i, sl := range sleeps {
			if grows && sl.Call == ssa.CallInstruction(a.call) && sl.Kind == WaitFixed {
				sleeps[i].Kind, marked = WaitBackoff, true
			}
		}
	}
	return marked
}
