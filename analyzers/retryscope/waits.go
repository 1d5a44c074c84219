package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// combineWaits summarises the sleeps of a scope: none, or the weakest kind among them; other
// waits (on a timer's channel) make it unknown.
func combineWaits(ss []Sleep, others int) WaitKind {
	if len(ss) == 0 && others == 0 {
		return WaitNone
	}
	if others > 0 {
		return WaitUnknown
	}
	kind := WaitJittered
	for _, s := range ss {
		switch {
		case s.Kind == WaitUnknown:
			return WaitUnknown
		case s.Kind < kind:
			kind = s.Kind
		}
	}
	return kind
}

// waitsOf summarises how the code of fn in the blocks for which in holds waits between
// attempts: its sleeps among calls, its waits on timer channels, and its calls of functions
// that wait, of this package (classified from their bodies) or known through a waitsFact.
//
// A wait belongs to the scope that makes it. A callee's waits are the scope's only when the
// scope decides them: the callee sleeps the duration it is given (a sleep helper), or a
// backoff computed from an argument the loop steps (go-redis's c._process(ctx, cmd, attempt)
// sleeping retryBackoff(attempt)), or it does nothing but wait (it reaches no remote call: a
// backoff helper of the package). A callee that does the attempt's work and sleeps for its own
// reasons (a readiness poll inside a join, a rate-limit wait inside a REST helper, a settle
// delay, pgxpool.ConnectConfig waiting for its connections) waits as part of the attempt.
func (st *state) waitsOf(fn *ssa.Function, calls []ssa.CallInstruction, in func(*ssa.BasicBlock) bool, l *loops.Loop, attempt ssa.CallInstruction) Wait {
	ss := sleeps(calls, l)
	// A wait made only when a caller's option is set, nil by default: by default, none.
	var unset string
	for i := range ss {
		ss[i].Unset = st.unsetByDefault(ss[i])
		ss[i].Kind = st.delayKind(ss[i].Duration, l) // with what the package stores in fields
	}
	if len(ss) > 0 && !slices.ContainsFunc(ss, func(s Sleep) bool { return s.Unset == "" }) {
		unset, ss = ss[0].Unset, nil
	}
	extra, unknown := channelWaits(fn, in, l)
	for _, sl := range extra {
		if sel, ok := sl.At.(*ssa.Select); ok && st.wokenByEvent(sel, l) {
			// select { case <-ticker.C: case <-q.notify: }: it waits for work to arrive, or
			// the next tick, not out a failure.
			unknown = append(unknown, sel)
			continue
		}
		ss = append(ss, sl)
	}
	var wayIn []Sleep
	for _, c := range calls {
		if _, started := c.(*ssa.Go); started || sleepDuration(c) != nil || c.Common().StaticCallee() == fn {
			continue // a goroutine's; counted above; the recursive call of a retrying function
		}
		w := st.calleeWaits(c)
		if w == nil {
			continue
		}
		s := Sleep{Call: c, Kind: w.Kind}
		args := c.Common().Args
		switch {
		case w.Param >= 0 && w.Param < len(args):
			s.Duration = args[w.Param]
			s.Kind = delayKind(s.Duration, l)
		case l != nil && slices.ContainsFunc(args, func(a ssa.Value) bool { return changesInLoop(a, l) }):
		case st.rem.Reach(c) == remote.ReachLocal:
		case literalOf(c, fn):
			// err = func() error { ...; sleep until the host's backoff; ...; attempt }(): a
			// function literal called where it is written is the loop's own code.
		case betweenAttempts(c, attempt, l):
			// Called only once the attempt went wrong, on the way to the next one (a reconnect
			// that waits as the server asked, then dials): its wait lies between the attempts.
		case w.OnWayOut:
			// The attempt backs off before it returns (Serve waiting its backoff timer, then
			// returning the error): nothing it does after the wait leaves the process.
			s.Kind = w.OutKind
		case w.OnWayIn:
			// The attempt waits before it sends (a reattach that waits the retry timeout,
			// then asks again): called again, it waits between the two, when the scope makes
			// no wait of its own (else it is a settle delay inside the attempt).
			s.Kind, s.Interruptible = w.InKind, w.InStops
			wayIn = append(wayIn, s)
			continue
		default:
			continue // the attempt's own waiting
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 && len(unknown) == 0 {
		ss = wayIn
	}
	w := Wait{Kind: combineWaits(ss, len(unknown)), Sleeps: ss}
	if w.Kind == WaitNone {
		w.Unset = unset
	}
	return w
}

// literalOf reports whether c calls a function literal of fn where it is made (func() { ...
// }()): its body is fn's own code, written inline.
func literalOf(c ssa.CallInstruction, fn *ssa.Function) bool {
	v := c.Common().Value
	if mc, ok := v.(*ssa.MakeClosure); ok {
		v = mc.Fn
	}
	lit, ok := v.(*ssa.Function)
	return ok && lit.Parent() == fn
}

// unsetByDefault returns the name of the function-valued field whose call computes the sleep's
// duration when the sleep is made only under a test that the same field is not nil, and what
// the package stores into that field is only what its callers give (a field of an options
// struct or a parameter, into which the package puts no default of its own): by default the
// field is nil and the wait is not made. "" otherwise.
func (st *state) unsetByDefault(s Sleep) string {
	if s.Duration == nil || s.Call.Block() == nil {
		return ""
	}
	var field *types.Var
	var place flow.Place
	flow.Backward(s.Duration, 32, func(x ssa.Value) bool {
		if c, ok := x.(*ssa.Call); ok && field == nil {
			if load, ok := c.Call.Value.(*ssa.UnOp); ok && load.Op == token.MUL {
				if fa, ok := load.X.(*ssa.FieldAddr); ok {
					field, place = flow.FieldVar(fa), flow.PlaceOf(load)
				}
			}
		}
		return field == nil
	})
	if field == nil || field.Pkg() != st.pass.Pkg || !flow.GuardedBySet(s.Call.Block(), place) || !st.callersOnly(field) {
		return ""
	}
	return field.Name()
}

// callersOnly reports whether everything the package's production code stores into field
// (at least one value) is a caller's: a parameter, or read from a parameter's field
// (cfg.RetryBackoff) that the storing function does not fill in itself first.
func (st *state) callersOnly(field *types.Var) bool {
	if !st.storesOwn(field) {
		return false
	}
	for _, v := range st.stores.Fields[field] {
		v = flow.Unwrap(v)
		if flow.IsNil(v) || testcode.Made(st.pass, v) {
			continue // nil, or a test's stand-in
		}
		if _, ok := v.(*ssa.Parameter); ok {
			continue
		}
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || !flow.Given(flow.PlaceOf(v).Root) {
			return false
		}
		if fa, ok := load.X.(*ssa.FieldAddr); !ok || storedAt(load.Parent(), flow.PlaceOf(fa)) {
			return false // if cfg.X == nil { cfg.X = def }: the package's default
		}
	}
	return true
}

// storedAt reports whether fn stores into the place at.
func storedAt(fn *ssa.Function, at flow.Place) bool {
	if fn == nil {
		return true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && flow.PlaceOf(st.Addr) == at {
				return true
			}
		}
	}
	return false
}

// storesOwn reports whether the package's production code stores into field.
func (st *state) storesOwn(field *types.Var) bool {
	for _, v := range st.stores.Fields[field] {
		if !testcode.Made(st.pass, v) {
			return true
		}
	}
	return false
}

// ownFunc reports whether call calls a function of this package (or an instance of one).
func (st *state) ownFunc(call ssa.CallInstruction) bool {
	callee := call.Common().StaticCallee()
	if callee != nil && callee.Pkg == nil && callee.Origin() != nil {
		callee = callee.Origin()
	}
	return callee != nil && callee.Pkg == st.ssaPkg
}

// calleeWaits returns how the function that call calls waits, or nil when it does not (or
// the model cannot see it: a function of another package without a waitsFact, an interface
// method, a function value).
func (st *state) calleeWaits(call ssa.CallInstruction) *waitsFact {
	callee := call.Common().StaticCallee()
	if callee != nil && callee.Pkg == nil && callee.Origin() != nil {
		callee = callee.Origin() // a generic function's instance: its body is the origin's
	}
	if callee != nil && callee.Pkg == st.ssaPkg && len(callee.Blocks) > 0 {
		return st.funcWaits(callee, 0)
	}
	if call.Common().IsInvoke() {
		return st.implementersWait(call.Common())
	}
	if call.Common().StaticCallee() == nil {
		if w := st.valueWaits(call.Common().Value); w != nil {
			return w
		}
	}
	fn := flow.Callee(call.Common())
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == st.pass.Pkg {
		return nil
	}
	if p := knowledge.PacerOf(flow.ID(fn)); p != nil && st.paced(p) {
		// ns1's client made with RateLimitStrategySleep: after each answer it waits until
		// the rate-limit window allows, for as long as the service says.
		return &waitsFact{Kind: WaitUnknown, Param: -1, OnWayOut: true, OutKind: WaitUnknown}
	}
	var f waitsFact
	if st.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// paced reports whether every client of pacer p that the package makes is configured to wait
// out the rate limit: the package calls one of p's configuring methods (in an option handed
// to its constructor, or on the client) at least as often as it makes clients, and makes one.
func (st *state) paced(p *knowledge.Pacer) bool {
	if v, ok := st.pacedMemo[p.Pkg]; ok {
		return v
	}
	made, configured := 0, 0
	for _, fn := range st.funcs { // function literals included
		for call := range flow.Calls(fn) {
			id := flow.ID(flow.Callee(call.Common()))
			switch {
			case p.Makes(id):
				made++
			case p.Configures(id):
				configured++
			}
		}
	}
	v := made > 0 && configured >= made
	st.pacedMemo[p.Pkg] = v
	return v
}

// valueWaits says how a function value that is called waits: one the package keeps in a
// field or variable (storedWaits), or one a function of the package makes (madeWaiter); nil
// when neither says.
func (st *state) valueWaits(callee ssa.Value) *waitsFact {
	if w := st.storedWaits(callee); w != nil {
		return w
	}
	return st.madeWaiter(callee)
}

// implementersWait says how a call of a method of an interface the package declares waits
// when every implementation of the package's production code backs off on its way out (see
// onWayOut): a supervisor calling its TunnelServer's Serve, whose one implementation waits its
// backoff before returning the error. nil otherwise.
func (st *state) implementersWait(cc *ssa.CallCommon) *waitsFact {
	if st.impls == nil {
		st.impls = flow.NewImplementers(st.ssaPkg)
	}
	var w *waitsFact
	for _, fn := range st.impls.Of(cc) {
		if testcode.At(st.pass, fn.Pos()) {
			continue // a test's stand-in
		}
		f := st.funcWaits(fn, 0)
		if f == nil || !f.OnWayOut {
			return nil
		}
		if w == nil {
			w = &waitsFact{Kind: f.OutKind, Param: -1, OnWayOut: true, OutKind: f.OutKind}
		}
		w.Kind = combineWaits([]Sleep{{Kind: w.Kind}, {Kind: f.OutKind}}, 0)
		w.OutKind = w.Kind
	}
	return w
}

// madeWaiter says how a function value waits when it is the result of a call of a function
// that returns a waiter (wait := strategy.Backoff(backoff.Linear(d)); wait(attempt)): of the
// package, by its returns, or of another, by its waiterFact.
func (st *state) madeWaiter(callee ssa.Value) *waitsFact {
	var w *waitsFact
	flow.Backward(callee, 16, func(x ssa.Value) bool {
		c, ok := x.(*ssa.Call)
		if !ok || w != nil {
			return w == nil
		}
		if f := c.Common().StaticCallee(); f != nil && f.Pkg == st.ssaPkg && len(f.Blocks) > 0 {
			w = st.returnedWaiter(f)
		} else if fn := flow.Callee(c.Common()); fn != nil && fn.Pkg() != nil && fn.Pkg() != st.pass.Pkg {
			var f waiterFact
			if st.pass.ImportObjectFact(fn, &f) {
				w = &waitsFact{Kind: f.Kind, Param: -1}
			}
		}
		return false
	})
	return w
}

// storedWaits says how the function kept in a package variable or struct field that callee
// loads waits, when the package's production code stores only functions of its own that wait
// there (var waitFunc = wait, which its tests override): nil otherwise.
func (st *state) storedWaits(callee ssa.Value) *waitsFact {
	var w *waitsFact
	for _, v := range st.stores.Loaded(callee) {
		if testcode.Made(st.pass, v) {
			continue // a test's stand-in, or its restoring the original
		}
		f, ok := v.(*ssa.Function)
		if !ok || f.Pkg != st.ssaPkg || len(f.Blocks) == 0 {
			return nil
		}
		if w = st.funcWaits(f, 0); w == nil {
			return nil
		}
	}
	return w
}

// funcWaits says how fn, a function of this package, waits: it sleeps, waits on a timer
// channel, or calls a function that does (depth calls deep). Param is the index among the
// call's arguments (receiver included) of the parameter its waits take their duration from,
// when they all do; -1 otherwise.
func (st *state) funcWaits(fn *ssa.Function, depth int) *waitsFact {
	if w, ok := st.waitMemo[fn]; ok {
		return w
	}
	st.waitMemo[fn] = nil // recursion waits nothing more
	calls := slices.Collect(flow.Calls(fn))
	ss := sleeps(calls, nil)
	for i := range ss {
		ss[i].Kind = st.delayKind(ss[i].Duration, nil) // with what the package stores in fields
	}
	extra, unknown := channelWaits(fn, func(*ssa.BasicBlock) bool { return true }, nil)
	ss = append(ss, extra...)
	if depth < 2 {
		for _, c := range calls {
			if _, started := c.(*ssa.Go); started || sleepDuration(c) != nil {
				continue // a goroutine's wait (go func() { time.Sleep(d); old.Close() }()) delays nobody
			}
			if callee := c.Common().StaticCallee(); callee != nil && callee.Pkg == st.ssaPkg && len(callee.Blocks) > 0 {
				if w := st.funcWaits(callee, depth+1); w != nil {
					s := Sleep{Call: c, Kind: w.Kind}
					if args := c.Common().Args; w.Param >= 0 && w.Param < len(args) {
						s.Duration = args[w.Param] // a helper of a helper: the duration passed on
						s.Kind = st.delayKind(s.Duration, nil)
					}
					ss = append(ss, s)
				}
			} else if cc := c.Common(); cc.StaticCallee() == nil && !cc.IsInvoke() {
				// f := cfg.newBackoff(); f(ctx, maxSleep): a function value the package makes,
				// or keeps in a field, that waits.
				if w := st.valueWaits(cc.Value); w != nil {
					ss = append(ss, Sleep{Call: c, Kind: w.Kind})
				}
			}
		}
	}
	if len(ss) == 0 && len(unknown) == 0 {
		return nil
	}
	out, outKind := st.onWayOut(fn, ss, unknown)
	in, inKind, inStops := st.onWayIn(fn, ss)
	w := &waitsFact{Kind: combineWaits(ss, len(unknown)), Param: -1, OnWayOut: out, OutKind: outKind, OnWayIn: in, InKind: inKind, InStops: inStops, Refuses: st.refuses(fn, ss, unknown)}
	for i, s := range ss {
		p := durationParam(fn, s.Duration)
		if p < 0 || i > 0 && p != w.Param {
			w.Param = -1
			break
		}
		w.Param = p
	}
	st.waitMemo[fn] = w
	return w
}

// onWayOut says whether fn makes one of its waits (ss, and the receives in unknown) on its
// way out, and how those waits wait: outside every loop of fn, not racing work under way, with
// no call that may leave the process after it. Such a function backs off after its work, before
// it returns (Serve waiting its backoff timer, then returning the error): that wait lies between
// its caller's attempts. Its other waits (a poll, a rate-limit wait before the request, a
// settle delay before reading back, a helper's) are the attempt's own.
func (st *state) onWayOut(fn *ssa.Function, ss []Sleep, unknown []ssa.Instruction) (bool, WaitKind) {
	var out []Sleep
	unknownOut := 0
	ls := loops.Of(fn)
	last := func(instr ssa.Instruction) bool {
		b := instr.Block()
		if b == nil || b.Parent() != fn || slices.ContainsFunc(ls, func(l *loops.Loop) bool { return l.Contains(b) }) || racesWork(instr) {
			return false
		}
		for c := range flow.CallsAfter(instr) {
			if st.rem.Reach(c) != remote.ReachLocal {
				return false
			}
		}
		return true
	}
	for _, s := range ss {
		at := ssa.Instruction(s.Call)
		if s.At != nil {
			at = s.At
		}
		if !last(at) {
			continue
		}
		if s.At == nil && sleepDuration(s.Call) == nil {
			// A helper's wait: on the way out only if the helper too waits on its way out.
			callee := s.Call.Common().StaticCallee()
			w, ok := st.waitMemo[callee]
			if callee == nil || !ok || w == nil || !w.OnWayOut {
				continue
			}
			if w.Param < 0 {
				s.Kind = w.OutKind // else the kind of the argument it waits, already in s
			}
		}
		out = append(out, s)
	}
	for _, instr := range unknown {
		if last(instr) {
			unknownOut++
		}
	}
	if len(out) == 0 && unknownOut == 0 {
		return false, WaitNone
	}
	return true, combineWaits(out, unknownOut)
}

// onWayIn says whether fn makes one of its waits (ss) before anything it does may leave the
// process, and how: a sleep or a wait on a timer of fn's own, outside every loop of fn, that
// every call of fn that may leave the process comes after. Such a function waits, then tries
// (a reattach that waits the channel's retry timeout, then asks the server again): called in
// a loop, that wait lies between its attempts. A wait that only some ways to the request
// pass, or that follows work already sent, is the attempt's own. stops says such a wait is
// a select that another channel can end (a state change, a stop).
func (st *state) onWayIn(fn *ssa.Function, ss []Sleep) (in bool, kind WaitKind, stops bool) {
	var sends []ssa.CallInstruction
	for c := range flow.Calls(fn) {
		if st.rem.Reach(c) != remote.ReachLocal {
			sends = append(sends, c)
		}
	}
	if len(sends) == 0 {
		return false, WaitNone, false
	}
	ls := loops.Of(fn)
	before := func(at ssa.Instruction, c ssa.CallInstruction) bool {
		a, b := at.Block(), c.Block()
		if a == b {
			return slices.Index(a.Instrs, at) < slices.Index(a.Instrs, ssa.Instruction(c))
		}
		return a.Dominates(b)
	}
	var waits []Sleep
	for _, s := range ss {
		at := ssa.Instruction(s.Call)
		if s.At != nil {
			at = s.At
		} else if sleepDuration(s.Call) == nil {
			continue // a helper's wait
		}
		b := at.Block()
		if b == nil || b.Parent() != fn || slices.ContainsFunc(ls, func(l *loops.Loop) bool { return l.Contains(b) }) {
			continue
		}
		if !slices.ContainsFunc(sends, func(c ssa.CallInstruction) bool { return !before(at, c) }) {
			waits = append(waits, s)
			stops = stops || racedBy(at)
		}
	}
	if len(waits) == 0 {
		return false, WaitNone, false
	}
	return true, combineWaits(waits, 0), stops
}

// racedBy reports whether the wait at is a select with other cases, or makes a timer channel
// (time.After) that such a select receives from.
func racedBy(at ssa.Instruction) bool {
	if sel, ok := at.(*ssa.Select); ok {
		return len(sel.States) > 1
	}
	v, ok := at.(ssa.Value)
	if !ok || v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		if sel, ok := r.(*ssa.Select); ok && len(sel.States) > 1 {
			return true
		}
	}
	return false
}

// racesWork reports whether instr is a select that also receives a result (a value of another
// kind than time or an empty struct): the timer bounds work under way, it is no backoff.
func racesWork(instr ssa.Instruction) bool {
	sel, ok := instr.(*ssa.Select)
	if !ok {
		return false
	}
	return slices.ContainsFunc(sel.States, resultCase)
}

// durationParam returns the index of the parameter of fn that d is, or -1.
//
// A helper that waits its delay in steps, to notice a stop (for d > 0 { s := min(step, d);
// time.Sleep(s); d -= s }), waits the whole parameter: a step is min of it, and what is left
// is a phi of the parameter and itself less what was slept.
func durationParam(fn *ssa.Function, d ssa.Value) int {
	if d == nil {
		return -1
	}
	switch v := flow.Unwrap(d).(type) {
	case *ssa.Parameter:
		return slices.Index(fn.Params, v)
	case *ssa.Call:
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "min" {
			for _, a := range v.Call.Args {
				if _, isConst := a.(*ssa.Const); isConst {
					continue
				}
				return durationParam(fn, a)
			}
		}
	case *ssa.Phi:
		p := -1
		for _, e := range v.Edges {
			if sub, ok := e.(*ssa.BinOp); ok && sub.Op == token.SUB && sub.X == v {
				continue // what is left after a step
			}
			param, ok := flow.Unwrap(e).(*ssa.Parameter)
			if !ok || p >= 0 {
				return -1
			}
			p = slices.Index(fn.Params, param)
		}
		return p
	}
	return -1
}

// storedDelays returns the functions the package's production code stores in the field or
// package variable that callee loads, when it stores at least one of its own (a default set
// by a constructor, a literal, a variable's initialiser): the default is what most users run,
// whatever a caller may put there instead (a parameter, a caller's option), which is skipped.
// Nil when the package stores none of its own: what runs is the caller's choice, unknown here.
func (st *state) storedDelays(callee ssa.Value) []*ssa.Function {
	if st == nil {
		return nil
	}
	var fns []*ssa.Function
	ok := true
	var resolve func(v ssa.Value, depth int)
	resolve = func(v ssa.Value, depth int) {
		v = flow.Unwrap(v)
		if !ok || flow.IsNil(v) || testcode.Made(st.pass, v) {
			return // nil, or a test's stand-in
		}
		switch v := v.(type) {
		case *ssa.Function:
			if v.Pkg == st.ssaPkg && len(v.Blocks) > 0 {
				fns = append(fns, v)
				return
			}
		case *ssa.MakeClosure:
			if f, isFn := v.Fn.(*ssa.Function); isFn && len(f.Blocks) > 0 {
				fns = append(fns, f)
				return
			}
		case *ssa.Phi:
			// backoff := DefaultBackoff(); if opts.Backoff != nil { backoff = opts.Backoff }
			if depth < 4 {
				for _, e := range v.Edges {
					resolve(e, depth+1)
				}
				return
			}
		case *ssa.Call:
			// A function of the package that makes the policy (DefaultBackoff() returning
			// its closure): what it returns.
			if f := v.Call.StaticCallee(); f != nil && f.Pkg == st.ssaPkg && len(f.Blocks) > 0 && depth < 4 {
				n := 0
				for ret := range flow.Returns(f) {
					if len(ret.Results) == 1 {
						resolve(ret.Results[0], depth+1)
						n++
					}
				}
				if n > 0 {
					return
				}
			}
		}
		if !flow.Given(flow.PlaceOf(v).Root) {
			ok = false // something else of the package's: a value the model cannot classify
		}
	}
	for _, v := range st.stores.Loaded(callee) {
		resolve(v, 0)
	}
	if !ok {
		return nil
	}
	return fns
}

// delayOf returns the delayFact of fn, a function of another package, or nil.
func (st *state) delayOf(fn *types.Func) *delayFact {
	if st == nil || fn.Pkg() == nil || fn.Pkg() == st.pass.Pkg {
		return nil
	}
	var f delayFact
	if !st.pass.ImportObjectFact(fn, &f) {
		return nil
	}
	return &f
}

// betweenAttempts reports whether call c of a retry loop runs after the attempt, in a block
// the attempt's dominates, on the way round: a loop that leaves on success goes that way only
// once the attempt failed (if !ok { reconnect(); continue }).
func betweenAttempts(c, attempt ssa.CallInstruction, l *loops.Loop) bool {
	if attempt == nil || l == nil || c == attempt {
		return false
	}
	b, ab := c.Block(), attempt.Block()
	return b != nil && ab != nil && b != ab && b.Parent() == ab.Parent() && ab.Dominates(b) && l.CanRepeat(b)
}

// parsedField reports whether ld loads a struct field that the package fills, somewhere, with a
// number parsed from text (strconv.Atoi(value), time.ParseDuration): data read from a peer or
// a file, not a constant or a configuration the program sets.
func (st *state) parsedField(ld *ssa.UnOp) bool {
	fa, ok := ld.X.(*ssa.FieldAddr)
	if st == nil || !ok {
		return false
	}
	fv := flow.FieldVar(fa)
	if fv == nil {
		return false
	}
	for _, v := range st.stores.Fields[fv] {
		parsed := false
		flow.Backward(v, 16, func(x ssa.Value) bool {
			if c, ok := x.(*ssa.Call); ok {
				parsed = knowledge.ParsesText(flow.Callee(c.Common()))
				return false
			}
			return true
		})
		if parsed {
			return true
		}
	}
	return false
}

// afterFunc reports whether the timer t was made by time.AfterFunc: resetting it schedules its
// function again (a heartbeat's watchdog) and returns at once; nothing waits on it.
func afterFunc(t ssa.Value) bool {
	found := false
	var visit func(x ssa.Value) bool
	visit = func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			found = found || id.Pkg == "time" && id.Recv == "" && id.Name == "AfterFunc"
			return false
		case *ssa.FreeVar:
			// A variable the closure captures by reference: what the closure stores into it
			// too (if t == nil { t = time.AfterFunc(d, f) } else { t.Reset(d) }).
			for _, r := range *x.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == x && !found {
					flow.Backward(st.Val, 16, visit)
				}
			}
		case *ssa.UnOp:
			// A field: what the same function stores into it (if p.timer == nil { p.timer =
			// time.AfterFunc(d, f); return }; p.timer.Reset(d)).
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && flow.FieldVar(fa) != nil {
				for _, b := range x.Parent().Blocks {
					for _, instr := range b.Instrs {
						if st, ok := instr.(*ssa.Store); ok && !found {
							if sfa, ok := st.Addr.(*ssa.FieldAddr); ok && flow.FieldVar(sfa) == flow.FieldVar(fa) {
								flow.Backward(st.Val, 16, visit)
							}
						}
					}
				}
			}
		}
		return !found
	}
	flow.Backward(t, 32, visit)
	return found
}

// wokenByEvent reports whether blocking select sel also receives, without leaving loop l,
// from a channel the package sends values on (q.notify <- struct{}{} when a job is queued):
// an event, not a timer nor a channel that is only closed (a stop signal), ends the wait.
func (st *state) wokenByEvent(sel *ssa.Select, l *loops.Loop) bool {
	if st.sentOn == nil {
		st.sentOn = make(map[any]bool)
		for _, fn := range st.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					switch x := instr.(type) {
					case *ssa.Send:
						if k := chanKey(x.Chan); k != nil {
							st.sentOn[k] = true
						}
					case *ssa.Select:
						for _, ss := range x.States {
							if ss.Dir == types.SendOnly {
								if k := chanKey(ss.Chan); k != nil {
									st.sentOn[k] = true
								}
							}
						}
					}
				}
			}
		}
	}
	for i, ss := range sel.States {
		if ss.Dir != types.RecvOnly || typeis.TimeChan(ss.Chan.Type()) || l != nil && leavesOn(sel, i, l) {
			continue
		}
		if k := chanKey(ss.Chan); k != nil && st.sentOn[k] {
			return true
		}
	}
	return false
}

// chanKey names the channel v holds when it is kept in a struct field or a package variable
// (q.notify), so that a send and a receive in different functions agree; nil otherwise.
func chanKey(v ssa.Value) any {
	load, ok := flow.Unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	switch x := load.X.(type) {
	case *ssa.FieldAddr:
		if fv := flow.FieldVar(x); fv != nil {
			return fv
		}
	case *ssa.Global:
		return x
	}
	return nil
}
