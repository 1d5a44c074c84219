package retryscope

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// How a function the scope calls waits: a callee of this package (funcWaits), a function
// value it keeps or makes, an interface's implementations, another package's (waitsFact),
// a pacer's client; and where in the callee the wait lies (on its way in, on its way out).

// calleeWaits returns how the function that call calls waits, or nil when it does not (or
// the model cannot see it: a function of another package without a waitsFact, an interface
// method, a function value).
func (st *state) calleeWaits(call ssa.CallInstruction) *waitsFact {
	callee := flow.Generic(call.Common().StaticCallee()) // (a generic function's instance: the origin's body)
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
	var w *waitsFact
	for _, fn := range st.implementers().Of(cc) {
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

// invokeWaits says how a call of a method of an interface the package declares waits, when
// implementations of the package's production code wait: as they do when all of them wait, an
// unknown wait when only some do (which one runs is the program's choice).
func (st *state) invokeWaits(cc *ssa.CallCommon, depth int) (WaitKind, bool) {
	var ss []Sleep
	all := true
	for _, fn := range st.implementers().Of(cc) {
		if testcode.At(st.pass, fn.Pos()) {
			continue // a test's stand-in
		}
		if f := st.funcWaits(fn, depth); f != nil {
			ss = append(ss, Sleep{Kind: f.Kind})
		} else {
			all = false
		}
	}
	switch {
	case len(ss) == 0:
		return WaitNone, false
	case !all:
		return WaitUnknown, true
	}
	return combineWaits(ss, 0), true
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
// there (var waitFunc = wait, which its tests override), or waiters its functions make: nil
// otherwise.
func (st *state) storedWaits(callee ssa.Value) *waitsFact {
	var w *waitsFact
	for _, v := range st.stores.Loaded(callee) {
		if testcode.Made(st.pass, v) {
			continue // a test's stand-in, or its restoring the original
		}
		f := callbackFunc(flow.Unwrap(v)) // retryWait: waitWithContext, of a named func type
		if f == nil {
			// retryDelayFn: delayFlooredCappedLn(1, 30), a waiter a function of the package makes.
			if w = st.madeWaiter(v); w == nil {
				return nil
			}
			continue
		}
		if f.Pkg != st.ssaPkg {
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
	ss := keptTimers(fn, sleeps(calls, nil))
	for i := range ss {
		ss[i].Kind = st.delayKind(ss[i].Duration, nil) // with what the package stores in fields
	}
	extra, unknown := channelWaits(fn, func(*ssa.BasicBlock) bool { return true }, nil)
	ss = append(ss, extra...)
	for _, c := range calls {
		if _, started := c.(*ssa.Go); !started && asksUser(c) {
			unknown = append(unknown, c) // a prompt: it returns when the user has answered
		}
	}
	own := len(ss) > 0 || len(unknown) > 0
	if depth < 2 {
		for _, c := range calls {
			if _, started := c.(*ssa.Go); started || sleepDuration(c) != nil {
				continue // a goroutine's wait (go func() { time.Sleep(d); old.Close() }()) delays nobody
			}
			if callee := capturedCallee(c.Common()); callee != nil && callee.Pkg == st.ssaPkg && len(callee.Blocks) > 0 {
				if w := st.funcWaits(callee, depth+1); w != nil {
					s := Sleep{Call: c, Kind: w.Kind}
					if args := c.Common().Args; w.Param >= 0 && w.Param < len(args) {
						s.Duration = args[w.Param] // a helper of a helper: the duration passed on
						s.Kind = st.delayKind(s.Duration, nil)
					}
					ss = append(ss, s)
				}
			} else if cc := c.Common(); cc.IsInvoke() {
				// h.Delay(req, n, err): a method of an interface the package declares, whose
				// implementations there wait (the default retry handler that a user may replace).
				if k, ok := st.invokeWaits(cc, depth+1); ok {
					ss = append(ss, Sleep{Call: c, Kind: k})
				}
			} else if cc.StaticCallee() == nil {
				// f := cfg.newBackoff(); f(ctx, maxSleep): a function value the package makes,
				// or keeps in a field, that waits.
				if w := st.valueWaits(cc.Value); w != nil {
					s := Sleep{Call: c, Kind: w.Kind}
					if w.Param >= 0 && w.Param < len(cc.Args) {
						s.Duration = cc.Args[w.Param] // r.retryWait(ctx, delay): the duration it is given
						s.Kind = st.delayKind(s.Duration, nil)
					}
					ss = append(ss, s)
				}
			}
		}
	}
	if len(ss) == 0 && len(unknown) == 0 {
		return nil
	}
	out, outKind := st.onWayOut(fn, ss, unknown)
	in, inKind, inStops := st.onWayIn(fn, ss)
	w := &waitsFact{Kind: combineWaits(ss, len(unknown)), Param: -1, Own: own, OnWayOut: out, OutKind: outKind, OnWayIn: in, InKind: inKind, InStops: inStops, Refuses: st.refuses(fn, ss, unknown)}
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

// capturedCallee returns the function cc calls: its static callee, or the function literal a
// captured variable holds (call := func(i int) error { ... }; go func() { ch <- call(i) }()).
func capturedCallee(cc *ssa.CallCommon) *ssa.Function {
	if f := cc.StaticCallee(); f != nil || cc.IsInvoke() {
		return f
	}
	return targetFunc(flow.Captured(cc.Value))
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

// keptTimers drops from ss, the waits found in fn, the timers and tickers fn makes but never
// receives from (time.NewTicker stored in a struct for a batch flush): whoever receives from
// their channel waits, not fn. A time.After fn returns stays fn's wait: its callers receive
// from it through fn (randomInterval(d) in a select), and judge it by fn's waitsFact.
func keptTimers(fn *ssa.Function, ss []Sleep) []Sleep {
	var received map[*ssa.Call]bool
	return slices.DeleteFunc(ss, func(s Sleep) bool {
		c, ok := s.Call.(*ssa.Call)
		if !ok {
			return false
		}
		if id := flow.ID(flow.Callee(c.Common())); id.Pkg != "time" || id.Recv != "" || id.Name != "NewTimer" && id.Name != "NewTicker" {
			return false
		}
		if received == nil {
			received = make(map[*ssa.Call]bool)
			for _, b := range fn.Blocks {
				receivesFrom(b, func(ch ssa.Value) bool {
					if m := timeChanMaker(ch); m != nil {
						received[m] = true
					}
					return false // look at every receive
				})
			}
		}
		return !received[c]
	})
}

// WaitHolder returns the function of the package whose code makes the waits of fn, a function
// of the package that waits: fn itself when it waits in its own code, or when more than one
// function it calls waits; otherwise the wait holder of the one function it calls that waits
// for a length it chooses (handleResponse → waitThrottled). Scopes that reach one wait
// through different callers share its holder: one place to add the jitter. It reads what
// funcWaits found while the scopes were summarised: a callee no scope led to counts as not
// waiting.
func (r *Result) WaitHolder(fn *ssa.Function) *ssa.Function {
	for range 4 {
		if w := r.waiting[fn]; w == nil || w.Own {
			return fn
		}
		var next *ssa.Function
		for c := range flow.Calls(fn) {
			g := c.Common().StaticCallee()
			if _, started := c.(*ssa.Go); started || g == nil || g.Pkg != fn.Pkg || r.waiting[g] == nil {
				continue
			}
			if next != nil && next != g || r.waiting[g].Param >= 0 {
				return fn // several waiting callees, or one told how long by fn
			}
			next = g
		}
		if next == nil {
			return fn
		}
		fn = next
	}
	return fn
}
