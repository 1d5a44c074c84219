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
// operation: each argument is the parameter of fn that call handed the helper for it (or that
// parameter stepped: retries-1), that parameter plus or minus a constant (a count), or a
// constant; a time.Duration parameter (a delay the helper grows) may change as it likes, since
// what is sent does not depend on it.
func sameOperationVia(fn *ssa.Function, call, back *ssa.Call) bool {
	args := back.Common().Args
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
		if y, _, ok := step(x); ok {
			x = y
		} else if _, isBin := x.(*ssa.BinOp); isBin {
			return false
		}
		if h := handedFor(call, back, x); h == nil || !flow.SameValue(h, p) && !stepOf(h, p) {
			return false
		}
	}
	return true
}

// handedFor returns what call handed the helper for x, when x is one of the helper's
// parameters (back being the helper's call); nil otherwise.
func handedFor(call, back *ssa.Call, x ssa.Value) ssa.Value {
	q, ok := flow.Unwrap(x).(*ssa.Parameter)
	if !ok || q.Parent() != back.Parent() {
		return nil
	}
	j := slices.Index(q.Parent().Params, q)
	if j < 0 || j >= len(call.Common().Args) {
		return nil
	}
	return call.Common().Args[j]
}

// step returns what v steps and the operator, when v is a value plus or minus an integer
// constant (retries-1, attempt+1).
func step(v ssa.Value) (x ssa.Value, op token.Token, ok bool) {
	bin, isBin := flow.Unwrap(v).(*ssa.BinOp)
	if !isBin || bin.Op != token.ADD && bin.Op != token.SUB {
		return nil, token.ILLEGAL, false
	}
	if _, isInt := flow.IntConst(bin.Y); !isInt {
		return nil, token.ILLEGAL, false
	}
	return bin.X, bin.Op, true
}

// variadicStep reports whether a, the argument a call passes for p, the variadic parameter of
// fn, is a new list whose elements are constants or a count read from p plus or minus a
// constant (retry(in, c+1) where c is retryCount[0], or 0 when none was given): the count
// travels with the recursion. It returns the step of the first such element (c+1) and its
// operator.
func variadicStep(fn *ssa.Function, a ssa.Value, p *ssa.Parameter) (*ssa.BinOp, token.Token, bool) {
	if !fn.Signature.Variadic() || len(fn.Params) == 0 || fn.Params[len(fn.Params)-1] != p {
		return nil, token.ILLEGAL, false
	}
	elems, ok := flow.Elems(flow.Unwrap(a))
	if !ok {
		return nil, token.ILLEGAL, false
	}
	var first *ssa.BinOp
	op := token.ILLEGAL
	for _, e := range elems {
		if e == nil {
			return nil, token.ILLEGAL, false // an element the list does not set
		}
		if _, isConst := flow.Unwrap(e).(*ssa.Const); isConst {
			continue
		}
		x, o, stepped := step(e)
		if !stepped || !readFrom(x, p) {
			return nil, token.ILLEGAL, false
		}
		if first == nil {
			first, _ = flow.Unwrap(e).(*ssa.BinOp)
			op = o
		}
	}
	return first, op, first != nil
}

// readFrom reports whether v is an element of the slice p, or a phi of such elements and
// constants (var c int; if len(p) > 0 { c = p[0] }).
func readFrom(v ssa.Value, p *ssa.Parameter) bool {
	seen := make(map[*ssa.Phi]bool)
	var from func(v ssa.Value) bool
	from = func(v ssa.Value) bool {
		switch v := flow.Unwrap(v).(type) {
		case *ssa.UnOp:
			ia, ok := v.X.(*ssa.IndexAddr)
			return ok && v.Op == token.MUL && flow.SameValue(ia.X, p)
		case *ssa.Phi:
			if seen[v] {
				return false // a value carried round a loop (the largest of the list): not a read
			}
			seen[v] = true
			found := false
			for _, e := range v.Edges {
				if _, isConst := flow.Unwrap(e).(*ssa.Const); isConst {
					continue
				}
				if !from(e) {
					return false
				}
				found = true
			}
			return found
		}
		return false
	}
	return from(v)
}

// stepOf reports whether v is p plus or minus an integer constant.
func stepOf(v, p ssa.Value) bool {
	x, _, ok := step(v)
	return ok && flow.SameValue(x, p)
}

// countsVia reports whether back passes on, plus or minus a constant, a parameter of the
// helper that call handed one of fn's parameters in the same place: the helper counts.
func countsVia(fn *ssa.Function, call, back *ssa.Call) bool {
	i, _ := countedVia(fn, call, back)
	return i >= 0
}

// countedVia is countedParam through the helper: the index of fn's parameter that the helper
// steps on its way back, and the operator; -1 when none is.
func countedVia(fn *ssa.Function, call, back *ssa.Call) (int, token.Token) {
	for i, a := range back.Common().Args {
		x, op, ok := step(a)
		if !ok || i >= len(fn.Params) {
			continue
		}
		if h := handedFor(call, back, x); h != nil && flow.SameValue(h, fn.Params[i]) {
			return i, op
		}
	}
	return -1, token.ILLEGAL
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
