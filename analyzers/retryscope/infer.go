package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// inferHelpers finds the functions of this package that retry a func-typed parameter.
func (st *state) inferHelpers() {
	st.fixpoint(func(fn *ssa.Function, obj *types.Func) bool {
		if st.local[obj] != nil || fn.Signature.Params().Len() == 0 {
			return false
		}
		f := st.inferHelper(fn)
		if f == nil {
			return false
		}
		st.local[obj] = f
		st.export(obj, f)
		return true
	})
}

// fixpoint runs step over the package's functions until a round finds nothing new, so that
// a fact built on another local one (a helper of a helper) is found too. step reports
// whether it found something.
func (st *state) fixpoint(step func(fn *ssa.Function, obj *types.Func) bool) {
	for range 4 {
		changed := false
		for _, fn := range st.funcs {
			if obj, ok := fn.Object().(*types.Func); ok && step(fn, obj) {
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// export exports f for obj when obj belongs to this package (not to an instantiation's origin
// elsewhere).
func (st *state) export(obj *types.Func, f analysis.Fact) {
	if obj.Pkg() == st.pass.Pkg {
		st.pass.ExportObjectFact(obj, f)
	}
}

// inferHelper returns a helperFact when fn calls one of its func-typed parameters inside one
// of its own retry scopes, or passes it to a retry helper.
func (st *state) inferHelper(fn *ssa.Function) *helperFact {
	var fact *helperFact
	params := fn.Params
	if fn.Signature.Recv() != nil && len(params) > 0 {
		params = params[1:]
	}
	for i, p := range params {
		sig, ok := p.Type().Underlying().(*types.Signature)
		if !ok || !typeis.ReturnsError(sig) && !returnsVerdict(sig) {
			continue // a notification callback is called, not retried
		}
		var found *Scope
		var attempt ssa.CallInstruction
		for _, s := range st.loopInfo[fn] {
			for _, c := range s.Calls {
				if (callsValue(c, p) || passesValue(c, p)) && goesRoundAfter(s, c) && !wayBack(s, c) {
					found, attempt = s, c
				}
			}
		}
		var via *helperCall
		if found == nil {
			found, via = st.passesToHelper(fn, p)
		}
		if found == nil {
			continue
		}
		if fact == nil {
			fact = &helperFact{Attempts: found.Attempts, Wait: found.Wait.Kind, Deadline: found.Deadline}
			// resp, err := fn(); if resp.StatusCode() != 429 { return }: what fn sends goes
			// again only once the server turned it away.
			fact.TurnedAway = attempt != nil && callsValue(attempt, p) && !st.res.Resends(found, attempt)
			if attempt != nil && callsValue(attempt, p) {
				fact.On = found.RetriesOn(attempt) // if strings.Contains(err.Error(), "over quota") { continue }
				fact.Named = found.NamedOn(attempt)
				fact.Stops = stopTypes(found, attempt)
				fact.Matches = matchParam(params, found)
			} else if via != nil && via.fact != nil {
				fact.Stops = via.fact.Stops // it hands the callback's error on to a helper
			}
			fact.Verdict = verdictParam(params, found, attempt, via)
			fact.Marks = st.stopMarks(fn)
			if via != nil && via.fact != nil {
				for _, m := range via.fact.Marks {
					if !slices.Contains(fact.Marks, m) {
						fact.Marks = append(fact.Marks, m)
					}
				}
			}
		}
		fact.Params = append(fact.Params, i)
	}
	return fact
}

// callsValue reports whether call calls v, directly or as a closure's free variable bound to v.
func callsValue(call ssa.CallInstruction, v ssa.Value) bool {
	c := call.Common()
	return !c.IsInvoke() && flow.SameValue(c.Value, v)
}

// passesValue reports whether call hands p, or a closure that calls p, to the function it
// calls (a wrapper that calls it once, such as a timeout helper).
func passesValue(call ssa.CallInstruction, p ssa.Value) bool {
	for _, a := range call.Common().Args {
		if flow.SameValue(a, p) || closureCalls(flow.Unwrap(a), p) {
			return true
		}
	}
	return false
}

// passesToHelper returns the scope of a call in fn that retries p: a helper call whose
// retried function is p or a closure that calls p, or a range over a retry iterator whose
// body calls p.
func (st *state) passesToHelper(fn *ssa.Function, p *ssa.Parameter) (*Scope, *helperCall) {
	for call := range flow.Calls(fn) {
		if s := st.iteratorScope(call); s != nil && closureCalls(flow.Unwrap(call.Common().Args[0]), p) {
			return s, nil
		}
		hc := st.helperCall(call)
		if hc == nil {
			continue
		}
		for _, a := range hc.retried {
			if flow.SameValue(a, p) || closureCalls(a, p) {
				return st.callbackScope(hc), hc
			}
		}
	}
	return nil, nil
}

// verdictParam returns one more than the index among params of the function-valued parameter
// that says whether scope s goes round after its attempt fails (if !isRetriable(err) { return
// err }), or that fn hands on as the verdict of the helper call via; 0 when there is none.
func verdictParam(params []*ssa.Parameter, s *Scope, attempt ssa.CallInstruction, via *helperCall) int {
	index := func(v ssa.Value) int {
		for j, q := range params {
			if flow.SameValue(v, q) {
				return j + 1
			}
		}
		return 0
	}
	if via != nil {
		if f := via.fact; f != nil && f.Verdict > 0 {
			if a := via.site.Arg(f.Verdict - 1); a != nil {
				return index(flow.Unwrap(a))
			}
		}
		return 0
	}
	if attempt == nil || s.Loop == nil {
		return 0
	}
	for _, d := range decisions(s.Fn, s.Loop.Contains) {
		if d.call != attempt || !d.policy {
			continue
		}
		found := 0
		flow.Backward(d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If).Cond, 16, func(x ssa.Value) bool {
			if c, ok := x.(*ssa.Call); ok && !c.Call.IsInvoke() {
				if ssa.CallInstruction(c) == attempt {
					return false // the attempt itself, whose error the verdict judges
				}
				found = index(c.Call.Value)
			}
			return found == 0
		})
		if found > 0 {
			return found
		}
	}
	return 0
}

// closureCalls reports whether v is a closure that calls p, bound as one of its free variables.
func closureCalls(v ssa.Value, p ssa.Value) bool {
	mc, ok := v.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	anon, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, b := range mc.Bindings {
		if i >= len(anon.FreeVars) || b != p && !flow.IsBoxOf(b, p) {
			continue
		}
		fv := anon.FreeVars[i]
		for c := range flow.Calls(anon) {
			if c.Common().IsInvoke() {
				continue
			}
			v := flow.Unwrap(c.Common().Value)
			if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL && load.X == fv || v == fv {
				return true
			}
		}
	}
	return false
}

// asksAgain reports whether a function the package hands to fn's parameter p, a verdict
// (flag bool, err error), asks to go round after it failed: some return of it pairs the flag
// value that goes round (again: true for an "again" flag, false for a "stop" one) with an
// error that may be set (return true, err). A callback that asks again only with a nil error
// (return status == pending, nil), or with an error of its own making once its call worked
// (return false, fmt.Errorf("waiting for %d activities", n)), polls for a state; a helper
// whose callbacks the package does not show is not judged.
func (st *state) asksAgain(p *ssa.Parameter, again bool, depth int) bool {
	i := slices.Index(p.Parent().Params, p)
	if i < 0 || depth > 2 {
		return false
	}
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			if call.Common().StaticCallee() != p.Parent() || i >= len(call.Common().Args) {
				continue
			}
			arg := flow.Unwrap(call.Common().Args[i])
			if f := callbackFunc(arg); f != nil && retriesFailure(f, again) {
				return true
			}
			if q, ok := arg.(*ssa.Parameter); ok && q.Parent() != p.Parent() && st.asksAgain(q, again, depth+1) {
				return true
			}
		}
	}
	return false
}

// retriesFailure reports whether a return of fn, a verdict (flag bool, err error), pairs the
// flag value again with an error that is not nil and is not one fn makes of its own words
// outside a test of a status (see madeCondition). (A flag computed from a state, return power
// != want, err, polls for that state; that it also goes round on an error is the poll's, not
// a retry of the error.)
func retriesFailure(fn *ssa.Function, again bool) bool {
	for ret := range flow.Returns(fn) {
		if len(ret.Results) < 2 || ret.Block() == fn.Recover {
			continue
		}
		flag, errv := returned(ret.Results[0]), returned(ret.Results[len(ret.Results)-1])
		if v, isConst := flow.BoolConst(flag); isConst && v == again && !flow.IsNil(errv) && !madeCondition(errv, ret.Block()) {
			return true
		}
	}
	return false
}

// madeCondition reports whether errv, returned from block b, is an error the function makes
// of its own words (madeError) where no test of an *http.Response's status decides: it names
// a state it waits for ("still pending"), not a failure of a call.
func madeCondition(errv ssa.Value, b *ssa.BasicBlock) bool {
	if !madeError(errv) {
		return false
	}
	for d := b; d != nil; d = d.Idom() {
		if ifInstr, ok := lastInstr(d).(*ssa.If); ok {
			if cmp, ok := ifInstr.Cond.(*ssa.BinOp); ok && (statusOf(cmp.X) != nil || statusOf(cmp.Y) != nil) {
				return false // a status the answer gave: a failure it names
			}
		}
	}
	return true
}

// madeError reports whether errv is an error made of the function's own words: errors.New, or
// fmt.Errorf with no error among its arguments.
func madeError(errv ssa.Value) bool {
	c, ok := flow.Unwrap(errv).(*ssa.Call)
	if !ok {
		return false
	}
	switch id := flow.ID(flow.Callee(c.Common())); id {
	case flow.FuncID{Pkg: "errors", Name: "New"}, flow.FuncID{Pkg: "fmt", Name: "Errorf"}:
	default:
		return false
	}
	for _, a := range c.Call.Args {
		bad := false
		flow.Backward(a, 16, func(v ssa.Value) bool {
			if typeis.ErrorLike(v.Type()) {
				bad = true
			}
			return !bad
		})
		if bad {
			return false // it wraps or quotes an error
		}
	}
	return true
}

// againValue returns the value of the flag that the test ending block b of loop l looks at
// that makes the loop go round: the side that stays in the loop; true when both or neither
// stay.
func againValue(b *ssa.BasicBlock, l *loops.Loop) bool {
	ifInstr := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	trueStays, falseStays := l.Contains(b.Succs[0]), l.Contains(b.Succs[1])
	v := true
	if !trueStays && falseStays {
		v = false
	}
	if u, ok := ifInstr.Cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		v = !v
	}
	return v
}

// flagTest returns the block of loop l that ends in a test of the flag that call, a callback's
// verdict (flag bool, err error), returns first; nil when there is none.
func flagTest(call *ssa.Call, l *loops.Loop) *ssa.BasicBlock {
	if call.Referrers() == nil {
		return nil
	}
	for _, ref := range *call.Referrers() {
		x, ok := ref.(*ssa.Extract)
		if !ok || x.Index != 0 || !typeis.Bool(x.Type()) || x.Referrers() == nil {
			continue
		}
		for _, use := range *x.Referrers() {
			if ifInstr, ok := use.(*ssa.If); ok && l.Contains(ifInstr.Block()) {
				return ifInstr.Block()
			}
			if u, ok := use.(*ssa.UnOp); ok && u.Op == token.NOT && u.Referrers() != nil {
				for _, use2 := range *u.Referrers() {
					if ifInstr, ok := use2.(*ssa.If); ok && l.Contains(ifInstr.Block()) {
						return ifInstr.Block()
					}
				}
			}
		}
	}
	return nil
}

// goesRoundAfter reports whether scope s, a loop or a recursion of its function, can make
// another attempt after call c: c is in the part that is repeated, not on the way out after
// a success (a response handler called before the function returns what it parsed).
func goesRoundAfter(s *Scope, c ssa.CallInstruction) bool {
	b := c.Block()
	if b == nil || b.Parent() != s.Fn {
		return true // in a function literal the scope calls
	}
	if s.Loop != nil {
		return s.Loop.CanRepeat(b)
	}
	if s.Kind != Recursion {
		return true
	}
	for again := range flow.Calls(s.Fn) {
		if again.Common().StaticCallee() == s.Fn || isCallBack(s.Fn, again) {
			if ab := again.Block(); ab == b && flow.Before(c, again) || ab != b && reaches(b, ab) {
				return true
			}
		}
	}
	return false
}

// reaches reports whether control can go from block from to block to.
func reaches(from, to *ssa.BasicBlock) bool {
	for b := range flow.Forward(from.Succs, nil) {
		if b == to {
			return true
		}
	}
	return false
}

// wayBack reports whether c is a retrying recursion's call of itself, directly or through a
// helper: handing p on to the next attempt is not calling it.
func wayBack(s *Scope, c ssa.CallInstruction) bool {
	return s.Kind == Recursion && (c.Common().StaticCallee() == s.Fn || isCallBack(s.Fn, c))
}

// isCallBack reports whether call calls a helper of the package that calls fn again.
func isCallBack(fn *ssa.Function, call ssa.CallInstruction) bool {
	c, ok := call.(*ssa.Call)
	return ok && callsBack(fn, c) != nil
}

// stopTypes returns the error types that make loop scope s leave at once when attempt, its
// call of the callback, returns one: a type assertion or errors.As singles the type out and
// its match side cannot go round (if _, fatal := err.(Fatal); fatal { return err }).
func stopTypes(s *Scope, attempt ssa.CallInstruction) []string {
	if s.Loop == nil || s.Fn == nil {
		return nil
	}
	var out []string
	for _, b := range s.Loop.Blocks(s.Fn) {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok || !typeTest(unNot(ifInstr.Cond)) {
			continue
		}
		target, ok := singlesOut(unNot(ifInstr.Cond), attempt, s.Loop.Contains)
		if !ok || s.Loop.CanRepeat(b.Succs[countNots(ifInstr.Cond)%2]) {
			continue
		}
		if t := targetType(target); !types.IsInterface(t) {
			out = append(out, types.TypeString(t, nil))
		}
	}
	return out
}

// typeTest reports whether cond tests an error's type: the ok of a type assertion, or
// errors.As.
func typeTest(cond ssa.Value) bool {
	switch c := cond.(type) {
	case *ssa.Extract:
		_, ok := c.Tuple.(*ssa.TypeAssert)
		return ok && c.Index == 1
	case *ssa.Call:
		return errorsPredicate(c) && flow.ID(flow.Callee(c.Common())).Name == "As"
	}
	return false
}

// matchParam returns one more than the index among params of the parameter holding a regular
// expression that s's errors must match to go round: the side of its MatchString test where
// the text does not match leaves the loop. 0 when there is none.
func matchParam(params []*ssa.Parameter, s *Scope) int {
	if s.Loop == nil || s.at == nil {
		return 0
	}
	for _, b := range s.Loop.Blocks(s.at) {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok {
			continue
		}
		call, ok := unNot(ifInstr.Cond).(*ssa.Call)
		if !ok || call.Call.IsInvoke() || len(call.Call.Args) != 2 {
			continue
		}
		if id := flow.ID(flow.Callee(call.Common())); id.Pkg != "regexp" || id.Recv != "Regexp" || id.Name != "MatchString" {
			continue
		}
		p, ok := flow.Unwrap(call.Call.Args[0]).(*ssa.Parameter)
		i := slices.Index(params, p)
		if !ok || i < 0 {
			continue
		}
		noMatch := b.Succs[1-countNots(ifInstr.Cond)%2]
		if _, ret := lastInstr(noMatch).(*ssa.Return); ret || !s.Loop.Contains(noMatch) {
			return i + 1
		}
	}
	return 0
}
