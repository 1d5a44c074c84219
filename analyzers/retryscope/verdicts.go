// A retry policy's verdict on an attempt (shouldRetry(err, resp), a bool variable made from
// such verdicts) and the attempt it judges, through statuses, channels and outcome structs.

package retryscope

import (
	"go/token"
	"go/types"
	"slices"
	"sync"
	"weak"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"golang.org/x/tools/go/ssa"
)

// retryPolicy reports whether the boolean v is a verdict on the outcome of another call made
// in the blocks: a call taking that call's error, response or response's status
// (shouldRetry(err, resp), c.CheckRetry(ctx, resp, err), retryable(resp.StatusCode), whatever
// its name, though not a standard
// library predicate such as errors.Is), or a boolean variable computed from such verdicts or
// from comparing the error with nil (again := err != nil && transient(err)). It returns the
// judged call. The verdict's sense (does true mean "again" or "done"?) is for the structure to
// tell, never a name: classifyLoop tries both sides, and the one that goes round is the failure.
func retryPolicy(v ssa.Value, in func(*ssa.BasicBlock) bool) (judged ssa.CallInstruction, ok bool) {
	if judged := retryVerdict(v, in); judged != nil {
		return judged, true
	}
	call := producer(v, in)
	if call == nil {
		return nil, false
	}
	if fn := flow.Callee(call.Common()); fn != nil && (fn.Pkg() == nil || ssapkg.IsStdPath(fn.Pkg().Path())) {
		return nil, false // errors.Is, bytes.Equal: a standard predicate is no policy
	}
	if yields(call) {
		return nil, false // an iterator hands its item to the range's body: no verdict on it
	}
	if returnsResponse(call) {
		// resp, body, again, err := c.attempt(req, errValue, n): the call made the attempt,
		// and its flag judges that attempt, not what it was handed.
		return call, true
	}
	for _, a := range call.Common().Args {
		if resp := statusOf(a); resp != nil {
			if c, ok := resp.(*ssa.Call); ok && typeis.Integer(c.Type()) && c != call && in(c.Block()) {
				return c, true // shouldRetry(status), the status a function of the program returned
			}
			a = resp // retryableStatus(resp.StatusCode): a verdict on the response
		}
		if typeis.ErrorLike(a.Type()) || typeis.HTTPResponse(a.Type()) {
			if judged := attemptOf(a, in, 0); judged != nil && judged != call {
				return judged, true
			}
		}
	}
	return nil, false
}

// yields reports whether call calls the yield function of a range-over-func iterator: the
// only parameter of a function func(yield func(...) bool) with no results.
func yields(call ssa.CallInstruction) bool {
	cc := call.Common()
	if cc.IsInvoke() {
		return false
	}
	var v ssa.Value = cc.Value
	fn := call.Parent()
	if fv, ok := v.(*ssa.FreeVar); ok {
		// A closure inside the iterator: follow the captured yield out.
		i := slices.Index(fn.FreeVars, fv)
		bindings := flow.Bindings(fv)
		if i < 0 || len(bindings) != 1 {
			return false
		}
		v = bindings[0]
		fn = fn.Parent()
	}
	p, ok := v.(*ssa.Parameter)
	if !ok || fn == nil || len(fn.Params) != 1 || fn.Params[0] != p || fn.Signature.Results().Len() != 0 {
		return false
	}
	sig, ok := p.Type().Underlying().(*types.Signature)
	return ok && sig.Results().Len() == 1 && typeis.Bool(sig.Results().At(0).Type())
}

// attemptOf returns the call whose outcome v is, looking through the standard library's error
// constructors (fmt.Errorf("scan: %w", err) is err's, not an attempt of its own).
func attemptOf(v ssa.Value, in func(*ssa.BasicBlock) bool, depth int) ssa.CallInstruction {
	p := producer(v, in)
	if p == nil || depth > 2 {
		return p
	}
	fn := flow.Callee(p.Common())
	res := p.Common().Signature().Results()
	if fn == nil || fn.Pkg() == nil || !ssapkg.IsStdPath(fn.Pkg().Path()) || res.Len() != 1 || !typeis.ErrorLike(res.At(0).Type()) {
		return p
	}
	for _, a := range p.Common().Args {
		if typeis.ErrorLike(a.Type()) {
			if q := attemptOf(a, in, depth+1); q != nil {
				return q
			}
		}
	}
	if fn.Name() == "Errorf" || fn.Name() == "Join" {
		// fmt.Errorf's arguments are a variadic slice: the error it wraps is stored into it.
		for _, r := range p.Common().Args {
			if sl, ok := r.(*ssa.Slice); ok {
				if alloc, ok := sl.X.(*ssa.Alloc); ok {
					for _, u := range *alloc.Referrers() {
						if ia, ok := u.(*ssa.IndexAddr); ok {
							for _, w := range *ia.Referrers() {
								if st, ok := w.(*ssa.Store); ok && typeis.ErrorLike(flow.Unwrap(st.Val).Type()) {
									if q := attemptOf(flow.Unwrap(st.Val), in, depth+1); q != nil {
										return q
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return nil // an error made here, not the outcome of an attempt
}

// returnsResponse reports whether call returns an *http.Response among other results.
func returnsResponse(call ssa.CallInstruction) bool {
	res := call.Common().Signature().Results()
	for i := range res.Len() {
		if res.Len() > 1 && typeis.HTTPResponse(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// retryVerdict returns the call whose outcome a boolean variable judges, when v is one: the
// call whose error the variable's computation compares with nil or hands to a check.
func retryVerdict(v ssa.Value, in func(*ssa.BasicBlock) bool) (judged ssa.CallInstruction) {
	phi, ok := v.(*ssa.Phi)
	if !ok || !typeis.Bool(phi.Type()) {
		return nil
	}
	flow.Backward(phi, 64, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Phi:
			// A flag set to true under a test of the call's outcome (if err != nil { ...;
			// shouldRetry = true }): the test that controls the assignment judges the call.
			if typeis.Bool(x.Type()) {
				for i, e := range x.Edges {
					if b, ok := flow.BoolConst(e); ok && b && i < len(x.Block().Preds) {
						if c := controller(x.Block().Preds[i], in); c != nil {
							judged = c
						}
					}
				}
			}
		case *ssa.BinOp:
			if flow.IsNil(x.X) && flow.IsError(x.Y) || flow.IsNil(x.Y) && flow.IsError(x.X) {
				judged = producer(x.X, in)
				if flow.IsNil(x.X) {
					judged = producer(x.Y, in)
				}
			}
		case *ssa.Call:
			for _, a := range x.Call.Args {
				if judged == nil && (typeis.ErrorLike(a.Type()) || typeis.HTTPResponse(a.Type())) {
					if p := producer(a, in); p != x {
						judged = p
					}
				}
			}
		}
		return judged == nil
	})
	return judged
}

// controller returns the call whose failure leads to block b: the nearest test above b (b
// itself, then its dominators, in the blocks for which in holds) of a call's outcome whose
// failure side b is on, or nil.
func controller(b *ssa.BasicBlock, in func(*ssa.BasicBlock) bool) ssa.CallInstruction {
	for d := b; d != nil && in(d); d = d.Idom() {
		if len(d.Instrs) == 0 {
			continue
		}
		if ifInstr, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If); ok {
			if _, flag := unNot(ifInstr.Cond).(*ssa.Phi); flag {
				continue // another flag: judged on its own, not through this one
			}
			// The flag is set on the failure side of the test: after the call failed.
			if call, success, either := outcome(ifInstr.Cond, in); call != nil && !either && d.Succs[1-success].Dominates(b) {
				return call
			}
		}
	}
	return nil
}

func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// statusOf returns resp when v is a load of resp.StatusCode, resp an *http.Response, or a call
// of a client library's status method on its response (resty's resp.StatusCode()).
func statusOf(v ssa.Value) ssa.Value {
	v = flow.Unwrap(v)
	if call, ok := v.(*ssa.Call); ok {
		if cc := call.Common(); !cc.IsInvoke() && len(cc.Args) == 1 && knowledge.StatusMethod(flow.Callee(cc)) {
			return cc.Args[0]
		}
		if returnsStatus(call.Call.StaticCallee(), 0) {
			return call // the status a function of the program sends a request for and returns
		}
		if i := statusGetter(call.Call.StaticCallee()); i >= 0 && i < len(call.Call.Args) {
			return call.Call.Args[i] // code(resp): the status of the response it is handed
		}
		return nil
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	if n, ok := types.Unalias(ptr.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil &&
		n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Response" &&
		n.Underlying().(*types.Struct).Field(fa.Field).Name() == "StatusCode" {
		return fa.X
	}
	return nil
}

// returnsStatus reports whether fn, a function of the program with one integer result,
// returns the status of a response it got from a call of its own (return resp.StatusCode), or
// a constant where it got none (return -1 after a failed send), directly or through such a
// function it calls: its result is the attempt's status.
func returnsStatus(fn *ssa.Function, depth int) bool {
	if fn == nil || len(fn.Blocks) == 0 || depth > 2 || fn.Signature.Results().Len() != 1 || !typeis.Integer(fn.Signature.Results().At(0).Type()) {
		return false
	}
	if depth == 0 {
		key := weak.Make(fn)
		if known, ok := statusFuncs.Load(key); ok {
			return known.(bool)
		}
		r := returnsStatus(fn, 1)
		statusFuncs.Store(key, r)
		return r
	}
	own := func(b *ssa.BasicBlock) bool { return b.Parent() == fn }
	status := false
	var of func(v ssa.Value, n int) bool
	of = func(v ssa.Value, n int) bool {
		v = flow.Unwrap(v)
		if _, isConst := flow.IntConst(v); isConst {
			return true
		}
		if n > 4 {
			return false
		}
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				if !of(e, n+1) {
					return false
				}
			}
			return true
		case *ssa.Call:
			if callee := x.Call.StaticCallee(); callee != fn && returnsStatus(callee, depth+1) {
				status = true
				return true
			}
		case *ssa.UnOp:
			if resp := statusOf(x); resp != nil && producer(resp, own) != nil {
				status = true // return resp.StatusCode, of a response it got
				return true
			}
			if x.Op == token.MUL {
				if a, ok := x.X.(*ssa.Alloc); ok {
					// A local variable (statusCode := resp.StatusCode, kept past a defer).
					vals := flow.Stored(a)
					for _, val := range vals {
						if !of(val, n+1) {
							return false
						}
					}
					return len(vals) > 0
				}
			}
		}
		return false
	}
	for ret := range flow.Returns(fn) {
		if ret.Block() == fn.Recover || len(ret.Results) != 1 {
			continue
		}
		if !of(ret.Results[0], 0) {
			return false
		}
	}
	return status
}

// statusGetter returns the index of the *http.Response parameter of fn, a function of the
// program with one integer result, whose StatusCode it returns (or a constant, for a nil
// response); -1 when it is no such getter.
func statusGetter(fn *ssa.Function) int {
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 || !typeis.Integer(fn.Signature.Results().At(0).Type()) {
		return -1
	}
	param := -1
	for ret := range flow.Returns(fn) {
		if ret.Block() == fn.Recover || len(ret.Results) != 1 {
			continue
		}
		v := flow.Unwrap(ret.Results[0])
		if _, isConst := flow.IntConst(v); isConst {
			continue
		}
		load, isLoad := v.(*ssa.UnOp)
		if !isLoad {
			return -1 // (not a call: statusOf of a call asks this again, of its callee)
		}
		p, ok := flow.Unwrap(statusOf(load)).(*ssa.Parameter)
		if !ok || p.Parent() != fn {
			return -1
		}
		i := slices.Index(fn.Params, p)
		if param >= 0 && i != param {
			return -1
		}
		param = i
	}
	return param
}

// statusFuncs memoises returnsStatus per function, as importedPredicates does (entries die
// with their program).
var statusFuncs sync.Map // weak.Pointer[ssa.Function] -> bool

// producer returns the call in the blocks (in) whose result v is, looking through tuples,
// phis, conversions and local variables.
func producer(v ssa.Value, in func(*ssa.BasicBlock) bool) ssa.CallInstruction {
	var found ssa.CallInstruction
	seen := make(map[ssa.Value]bool)
	var visit func(v ssa.Value, depth int)
	visit = func(v ssa.Value, depth int) {
		if found != nil || v == nil || seen[v] || depth > 8 {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Call:
			if knowledge.Unwraps(flow.ID(flow.Callee(x.Common()))) && len(x.Call.Args) == 1 {
				visit(x.Call.Args[0], depth+1) // errors.Cause(err): err's
			} else if in(x.Block()) {
				found = x
			}
		case *ssa.Extract:
			if ch := flow.Received(x); ch != nil {
				found = startedIn(ch, x, in)
				return
			}
			visit(x.Tuple, depth+1)
		case *ssa.Field:
			if flow.Received(x.X) != nil {
				visit(x.X, depth+1) // r := <-results; r.err: the goroutine's outcome
			}
		case *ssa.Phi:
			for _, e := range x.Edges {
				visit(e, depth+1)
			}
		case *ssa.ChangeInterface:
			visit(x.X, depth+1)
		case *ssa.MakeInterface:
			visit(x.X, depth+1)
		case *ssa.ChangeType:
			visit(x.X, depth+1)
		case *ssa.UnOp:
			if x.Op == token.MUL {
				switch a := x.X.(type) {
				case *ssa.Alloc, *ssa.FreeVar:
					// A local variable, or one a closure shares with its function (a named
					// result captured by a deferred func, a range-over-func body's).
					for _, s := range flow.StoredBefore(a, x) {
						visit(s, depth+1)
					}
				}
				if fa, ok := x.X.(*ssa.FieldAddr); ok {
					if a, ok := fa.X.(*ssa.Alloc); ok {
						for _, s := range flow.StoredBefore(a, x) {
							if flow.Received(s) != nil {
								visit(s, depth+1) // case r := <-results: r.err
							}
						}
					}
				}
			}
			if ch := flow.Received(x); ch != nil {
				found = startedIn(ch, x, in)
			}
		}
	}
	visit(v, 0)
	return found
}

// startedIn returns the go statement, in the blocks for which in holds, that started the
// goroutine whose answer recv receives from ch: each attempt runs in a goroutine of its own
// and sends its outcome back (go func() { ch <- c.call(ctx) }(); select { case err := <-ch:
// ...; case <-ctx.Done(): ... }); the go statement stands for the attempt. Nil when none is.
func startedIn(ch ssa.Value, recv ssa.Instruction, in func(*ssa.BasicBlock) bool) ssa.CallInstruction {
	var blocks []*ssa.BasicBlock
	for _, b := range recv.Parent().Blocks {
		if in(b) {
			blocks = append(blocks, b)
		}
	}
	if g := flow.StartedFor(ch, flow.BlockCalls(blocks)); g != nil {
		return g
	}
	return nil
}

// errorFieldTest reports whether fn, a method without parameters that returns a bool, of a
// struct type with an error-typed field, tests that field against nil, and in which sense:
// trueFails when it is true for a set error (func (e *Error) IsNil() bool { return e.Err ==
// nil && e.Message == "" } is true for none). Its every comparison of such a field must have
// the same sense. For another package's method, whose body is not here, known is false: the
// structure around the test must tell its sense.
func errorFieldTest(fn *ssa.Function) (trueFails, known, ok bool) {
	if fn == nil || fn.Signature.Recv() == nil || fn.Signature.Params().Len() != 0 || fn.Signature.Results().Len() != 1 ||
		!typeis.Bool(fn.Signature.Results().At(0).Type()) || !typeis.HoldsError(fn.Signature.Recv().Type()) {
		return false, false, false
	}
	if len(fn.Blocks) == 0 || len(fn.Params) != 1 {
		return false, false, true
	}
	eq, ne := 0, 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			bin, isBin := instr.(*ssa.BinOp)
			if !isBin || bin.Op != token.EQL && bin.Op != token.NEQ {
				continue
			}
			x := bin.X
			if flow.IsNil(x) {
				x = bin.Y
			} else if !flow.IsNil(bin.Y) {
				continue
			}
			var of ssa.Value // the struct, or its address, whose field x is
			if _, fa := flow.FieldLoad(flow.Unwrap(x)); fa != nil {
				of = fa.X
			} else if f, ok := flow.Unwrap(x).(*ssa.Field); ok {
				of = f.X
			}
			if of == nil || !typeis.Error(x.Type()) || !flow.SameValue(heldIn(of), fn.Params[0]) {
				continue
			}
			if bin.Op == token.EQL {
				eq++
			} else {
				ne++
			}
		}
	}
	switch {
	case eq > 0 && ne == 0:
		return false, true, true
	case ne > 0 && eq == 0:
		return true, true, true
	}
	return false, false, false
}

// heldIn returns the value a method's receiver v holds: for the address of a variable one
// value is stored in (herr := ...; herr.IsNil() takes &herr), that value; v otherwise.
func heldIn(v ssa.Value) ssa.Value {
	if a, ok := flow.Unwrap(v).(*ssa.Alloc); ok {
		if vals := flow.Stored(a); len(vals) == 1 {
			return vals[0]
		}
	}
	return v
}
