package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Retry iterators (range over func, Go 1.23): a function such as
//
//	func attempts(ctx context.Context, n int) iter.Seq[int]
//
// whose iterator calls yield once per attempt and waits between the calls, used as
//
//	for range attempts(ctx, 3) {
//		if err = send(); err == nil {
//			break
//		}
//	}
//
// The range statement's body is then a scope of kind Iterator. go/ssa turns the body into a
// synthetic yield function, returning false where the body breaks or returns, and calls the
// iterator with it.

const yieldSynthetic = "range-over-func yield"

// retryIterator summarises fn when it is a retry iterator: its only parameter is the yield
// function, and one of its loops calls yield, leaves when yield returns false, and waits
// between the calls. A loop that does not wait walks data (slices.Values); one that waits a
// fixed or unknown time with nothing counting the calls does periodic work (a ticker) or
// relays events from a channel.
func (st *state) retryIterator(fn *ssa.Function) *iteratorFact {
	if f, ok := st.iterMemo[fn]; ok {
		return f
	}
	f := st.findRetryIterator(fn)
	st.iterMemo[fn] = f
	return f
}

func (st *state) findRetryIterator(fn *ssa.Function) *iteratorFact {
	if len(fn.Params) != 1 || fn.Signature.Results().Len() != 0 {
		return nil
	}
	yield := fn.Params[0]
	sig, ok := yield.Type().Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 1 || !typeis.Bool(sig.Results().At(0).Type()) {
		return nil
	}
	for _, l := range loops.Of(fn) {
		var calls []ssa.CallInstruction
		var attempt ssa.CallInstruction
		for c := range flow.BlockCalls(l.Blocks(fn)) {
			calls = append(calls, c)
			if call, ok := c.(*ssa.Call); ok && callsValue(c, yield) && leavesOnFalse(call, l) {
				attempt = c
			}
		}
		if attempt == nil || yieldsData(attempt, l) {
			continue
		}
		w := st.waitsOf(fn, calls, l.Contains, l, nil)
		if w.Kind == WaitNone {
			continue
		}
		f := &iteratorFact{
			Attempts: st.loopBound(fn, l, attempt),
			Wait:     w.Kind,
			Deadline: observesDeadline(calls),
		}
		if f.Attempts.Kind == BoundNone && f.Wait != WaitBackoff && f.Wait != WaitJittered {
			continue
		}
		st.iteratorLoop(fn, l, attempt, calls, w, f)
		return f
	}
	return nil
}

// iteratorLoop records the loop of a retry iterator written in this package as a Loop scope
// of Result.IteratorLoops: where its waits, bound and deadline are written.
func (st *state) iteratorLoop(fn *ssa.Function, l *loops.Loop, attempt ssa.CallInstruction, calls []ssa.CallInstruction, w Wait, f *iteratorFact) {
	if fn.Pkg != st.ssaPkg || flow.Syntax(fn) == nil {
		return
	}
	node := st.loopSyntax(fn, l, loopNodes(st.pass, flow.Syntax(fn)), map[ast.Node]bool{})
	if node == nil {
		return
	}
	s := &Scope{Fn: fn, at: fn, Loop: l, Decisive: attempt, Calls: calls, Attempts: f.Attempts, Wait: w, Deadline: f.Deadline, Iterates: true}
	st.setLoopSyntax(s, node, loopNodes(st.pass, flow.Syntax(fn)))
	st.res.IteratorLoops = append(st.res.IteratorLoops, s)
}

// yieldsData reports whether the loop yields what it fetches (a page, a message) rather than
// an attempt number: a value that a call or a channel receive in the loop produces, other
// than a context's error or the time.
func yieldsData(yield ssa.CallInstruction, l *loops.Loop) bool {
	found := false
	for _, a := range yield.Common().Args {
		flow.Backward(a, 64, func(x ssa.Value) bool {
			switch x := x.(type) {
			case *ssa.Call:
				if !l.Contains(x.Block()) {
					return false
				}
				id := flow.ID(flow.Callee(x.Common()))
				if !(id.Pkg == "context" && id.Name == "Err" || id.Pkg == "time" && oneOf(id.Name, "Now", "Since", "Until")) {
					found = true
				}
				return false
			case *ssa.UnOp:
				found = found || x.Op == token.ARROW && l.Contains(x.Block())
			case *ssa.Select:
				found = found || l.Contains(x.Block())
			}
			return !found
		})
	}
	return found
}

// leavesOnFalse reports whether the loop is left when call, a call of yield, returns false.
func leavesOnFalse(call *ssa.Call, l *loops.Loop) bool {
	refs := call.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		cond, falseSucc := ssa.Value(call), 1
		if not, ok := r.(*ssa.UnOp); ok && not.Op == token.NOT {
			cond, falseSucc = not, 0
			if refs := not.Referrers(); refs != nil && len(*refs) == 1 {
				r = (*refs)[0]
			}
		}
		if i, ok := r.(*ssa.If); ok && i.Cond == cond {
			s := i.Block().Succs[falseSucc]
			if l.CanExit(s) && !l.CanRepeat(s) {
				return true
			}
		}
	}
	return false
}

// inferIterators finds the functions of this package that return a retry iterator, directly
// or from another such function.
func (st *state) inferIterators() {
	st.fixpoint(func(fn *ssa.Function, obj *types.Func) bool {
		if st.iters[obj] != nil || fn.Signature.Results().Len() != 1 {
			return false
		}
		f := st.returnedIterator(fn)
		if f == nil {
			return false
		}
		st.iters[obj] = f
		st.export(obj, f)
		return true
	})
}

// returnedIterator returns the summary of the retry iterator fn returns, when every return
// gives one.
func (st *state) returnedIterator(fn *ssa.Function) *iteratorFact {
	var fact *iteratorFact
	for ret := range flow.Returns(fn) {
		if len(ret.Results) != 1 {
			continue
		}
		f, _ := st.iteratorOf(ret.Results[0])
		if f == nil {
			return nil
		}
		fact = f
	}
	return fact
}

// iteratorOf returns the summary of v when it is a retry iterator, and the name of the
// function that made it ("" for a literal).
func (st *state) iteratorOf(v ssa.Value) (*iteratorFact, *types.Func) {
	switch v := flow.Unwrap(v).(type) {
	case *ssa.MakeClosure:
		if anon, ok := v.Fn.(*ssa.Function); ok {
			return st.retryIterator(anon), nil
		}
	case *ssa.Function:
		if v.Parent() != nil { // a literal with no free variables
			return st.retryIterator(v), nil
		}
	case *ssa.Call:
		fn := flow.Callee(v.Common())
		if fn == nil {
			return nil, nil
		}
		if f := st.iters[fn]; f != nil {
			return f, fn
		}
		if fn.Pkg() != nil && fn.Pkg() != st.pass.Pkg {
			var f iteratorFact
			if st.pass.ImportObjectFact(fn, &f) {
				return &f, fn
			}
		}
	}
	return nil, nil
}

// iteratorScope returns the Iterator scope of call when it runs a retry iterator with the
// body of a range statement that leaves the loop somewhere (on success); a body that never
// leaves takes every value, which is iteration, not retry.
func (st *state) iteratorScope(call ssa.CallInstruction) *Scope {
	c := call.Common()
	if c.IsInvoke() || len(c.Args) != 1 {
		return nil
	}
	var body *ssa.Function
	switch a := flow.Unwrap(c.Args[0]).(type) {
	case *ssa.MakeClosure:
		body, _ = a.Fn.(*ssa.Function)
	case *ssa.Function:
		body = a
	}
	if body == nil || body.Synthetic != yieldSynthetic || !leavesSomewhere(body) || !goesRoundOnFailure(body) {
		return nil
	}
	rng, ok := flow.Syntax(body).(*ast.RangeStmt)
	if !ok || rng.Body == nil {
		return nil
	}
	f, fn := st.iteratorOf(c.Value)
	if f == nil {
		return nil
	}
	s := &Scope{
		Kind: Iterator, Fn: body, Node: rng, Stmt: rng, Body: rng,
		From: rng.Body.Pos(), To: rng.Body.End(), Func: fn, Helper: helperName(fn),
		Attempts: f.Attempts, Wait: Wait{Kind: f.Wait}, Deadline: f.Deadline,
	}
	if l := st.labels[rng]; l != nil {
		s.Stmt = l
	}
	s.Calls = slices.Collect(flow.Calls(body))
	if s.Deadline == DeadlineNone {
		s.Deadline = observesDeadline(s.Calls)
	}
	return s
}

// goesRoundOnFailure reports whether a range body goes round after a failure: a test of a
// call's outcome whose failure side can reach the end of the body (or a continue) and whose
// success side can leave the loop. A body whose tests all leave on failure and go round after
// a success (a long poll reconnecting when its stream ends) repeats work, it does not retry.
func goesRoundOnFailure(body *ssa.Function) bool {
	all := func(*ssa.BasicBlock) bool { return true }
	ds := decisions(body, all)
	if len(ds) == 0 {
		return true // outcomes tested through variables the model does not follow: keep it
	}
	for _, d := range ds {
		if reachesReturn(d.block.Succs[1-d.success], true) && reachesReturn(d.block.Succs[d.success], false) {
			return true
		}
	}
	return false
}

// reachesReturn reports whether a return of the constant v (a yield body's true: go round,
// false: leave) can be reached from b.
func reachesReturn(b *ssa.BasicBlock, v bool) bool {
	for x := range flow.Forward([]*ssa.BasicBlock{b}, nil) {
		if ret, ok := last(x).(*ssa.Return); ok && len(ret.Results) == 1 {
			if c, ok := ret.Results[0].(*ssa.Const); ok && c.Value != nil && constant.BoolVal(c.Value) == v {
				return true
			}
		}
	}
	return false
}

// leavesSomewhere reports whether a range-over-func body breaks or returns on some path: its
// yield function then returns false.
func leavesSomewhere(body *ssa.Function) bool {
	for ret := range flow.Returns(body) {
		if len(ret.Results) == 1 {
			if c, ok := ret.Results[0].(*ssa.Const); ok && c.Value != nil && !constant.BoolVal(c.Value) {
				return true
			}
		}
	}
	return false
}

// last returns the block's last instruction (its terminator), or nil.
func last(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}
