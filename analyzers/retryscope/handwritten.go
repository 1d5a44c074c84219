package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// handWritten finds the retry loops, goto loops and retrying recursion of fn.
func (st *state) handWritten(fn *ssa.Function) []*Scope {
	var scopes []*Scope
	ls := loops.Of(fn)
	if len(ls) > 0 && flow.Syntax(fn) != nil {
		candidates := loopNodes(st.pass, flow.Syntax(fn))
		taken := make(map[ast.Node]bool)
		tries := make(map[ssa.CallInstruction]bool) // calls a long-running loop tries again
		// Innermost loops claim their syntax first.
		for i := len(ls) - 1; i >= 0; i-- {
			l := ls[i]
			d, kind := st.classifyLoop(fn, l, ls)
			node := st.loopSyntax(fn, l, candidates, taken)
			if node == nil {
				continue
			}
			taken[node] = true
			if kind == lifecycle {
				// The innermost loop that tries the call again after its failure owns that
				// failure's wait; the loops around it go round through it.
				if !tries[d.call] {
					tries[d.call] = true
					st.lifecycle(fn, l, d, node, candidates)
				}
				continue
			}
			if kind != retrying {
				continue
			}
			var timer *iteratorFact
			if rng, ok := node.(*ast.RangeStmt); ok && ownChanCall(st.pass, rng.X) && !typeis.TimeChan(st.pass.TypesInfo.TypeOf(rng.X)) {
				if timer = st.rangesOverTimer(fn, l); timer == nil {
					continue // a channel of the package's that is not a retry timer: its items
				}
			}
			s := &Scope{Fn: fn, at: fn, Loop: l, Decisive: d.call}
			s.Attempts = st.loopBound(fn, l, d.call)
			if st.recovers(l, d, s.Attempts) {
				continue // it changes what it sends, once: a recovery, not a retry
			}
			if fallsBackOnce(l, d) {
				continue // it goes round once, to another name: a fallback, not a retry
			}
			if st.redirects(fn, l) {
				continue // it follows a redirect: the next round goes to another URL
			}
			if answersChallenge(l, d) {
				continue // it answers a challenge: the judge of the answer prepares the next request
			}
			if st.drawsAnew(fn, l, d) {
				continue // a new random value each round, on a collision: not the same request again
			}
			st.setLoopSyntax(s, node, candidates)
			s.Calls = slices.Collect(flow.BlockCalls(l.Blocks(fn)))
			if d.policy && s.Attempts.Kind == BoundNone && policyMayCount(d) {
				s.Attempts.Kind = BoundUnknown // the policy may count attempts itself
			}
			s.Wait = st.waitsOf(fn, s.Calls, l.Contains, l, d.call)
			for i, sl := range s.Wait.Sleeps {
				// (A success that leaves the loop, even to an outer loop's header that
				// dominates this one, is no way to a wait of this loop.)
				if b, succ := sl.Call.Block(), d.block.Succs[d.success]; b != nil && b.Parent() == fn && l.Contains(succ) && succ.Dominates(b) && enteredOnlyFrom(succ, d.block) && !afterFailureStatus(b, l) {
					s.Wait.Sleeps[i].AfterSuccess = true
				}
			}
			if s.Wait.Kind == WaitNone && afterTimeoutOnly(l, d) {
				s.Wait.Kind = WaitUnknown // each attempt that goes round has waited out its own timeout
			}
			if timer != nil {
				// The timer's goroutine waits between the values it sends, and counts them.
				if s.Wait.Kind == WaitNone {
					s.Wait.Kind = timer.Wait
				}
				if s.Attempts.Kind == BoundNone {
					s.Attempts = timer.Attempts
				}
			}
			pollPeriod(fn, s.Wait.Sleeps, l, d)
			s.Wait.Bypass = st.bypass(l, d, s.Wait.Sleeps)
			drops := dropsTried(l, d)                          // each round another target from a shrinking list
			walks := st.iterates(d, l) || switchesTarget(l, d) // to each target of a list, or a picker's next
			s.Failover = drops || walks || failover(l, d, s.Attempts)
			if s.Attempts.Kind == BoundNone && (drops || walks || triesEachOnce(l, d)) {
				s.Attempts.Kind = BoundUnknown // as many rounds as there are targets
			}
			s.Deadline = observesDeadline(s.Calls)
			if timer != nil && s.Deadline == DeadlineNone {
				s.Deadline = timer.Deadline
			}
			if s.Deadline == DeadlineNone && slices.ContainsFunc(s.Wait.Sleeps, func(sl Sleep) bool { return sl.Interruptible }) {
				s.Deadline = DeadlineUnknown // each try's wait also ends on an event (a state change)
			}
			if s.Deadline == DeadlineContext && s.Attempts.Kind == BoundNone && neverLeavesOnFailure(l, d) && !knowledge.EndsWithContext(flow.Callee(d.call.Common())) && !endsWithContext(d.call) && !namesOwnError(d, l) {
				// It hands its context to the attempt, but no failure leaves the loop: once the
				// context is done, every attempt fails at once and the loop goes round for ever.
				s.Deadline, s.KeepsGoing = DeadlineNone, true
			}
			if s.Deadline == DeadlineNone && endsAtTimer(fn, l) {
				s.Deadline = DeadlineElapsed // a timer made before the loop ends it
			}
			if s.Deadline == DeadlineNone && (st.selectsOnSignal(fn, l.Contains) || stopsOnClose(l) || st.stopsFromElsewhere(fn, l)) {
				s.Deadline, s.KeepsGoing = DeadlineContext, false // it runs until the program stops it
			}
			if s.Wait.Kind == WaitNone && callerPolicy(fn, l, d.call, s.Calls) {
				// should = should && strategies[i](breaker, attempt, err): the caller's
				// strategies judge each round and may wait or count: the caller's to say.
				s.Wait.Kind = WaitUnknown
				if s.Attempts.Kind == BoundNone {
					s.Attempts.Kind = BoundUnknown
				}
			}
			if contextVerdict(fn, l) {
				// if rh.WaitOrSkipRetry(ctx, attempts, err) { goto retry }: a policy handed the
				// context decides whether to go round, and may wait on it first.
				if s.Wait.Kind == WaitNone {
					s.Wait.Kind = WaitUnknown
				}
				if s.Deadline == DeadlineNone {
					s.Deadline, s.KeepsGoing = DeadlineContext, false
				}
			}
			scopes = append([]*Scope{s}, scopes...)
		}
	}
	if s := st.recursion(fn); s != nil {
		scopes = append(scopes, s)
	}
	return scopes
}

// recovers reports whether loop l goes round after a failure of its decision d only through
// a step that changes what the next attempt sends: a call that leaves the process (or may, and
// can fail), a call of the program's own that can fail (re-register an account, refresh
// credentials), or a store into a field or variable that the attempt reads (switch to another
// endpoint). Bounded at two attempts, or going round only on the program's own condition,
// such a loop tries again after it fixed the cause; it does not repeat the same request, and
// a failing dependency ends it.
func (st *state) recovers(l *loops.Loop, d decision, b Bound) bool {
	if b.Kind != BoundConst || b.N > 2 {
		// More rounds recover only from the program's own condition, one the answer names
		// (pgErr.Code == undefinedFunction: create it, and ask again; a 401: log in again),
		// not from a failure of the dependency, which a step such as reconnecting does not
		// cure. Without a count,
		// the answer must name it in a field the program reads (isUnauthorized(err): errors.As,
		// then e.Code == 16), or as one of its error variables (err == zk.ErrNoNode: create
		// the parent, and ask again): a verdict of the error's own method (e.RetryableRead())
		// may hold for a failed connection.
		f := failuresOf(d)
		if f == AnyFailure {
			f = narrowed(d.block.Succs[1-d.success], d.call, l, l.Contains)
		}
		fail := d.block.Succs[1-d.success]
		if f == 0 || f&^(FailOther|FailAuth) != 0 || b.Kind != BoundConst && !namesCause(fail, d.call, l, l.Contains) && !namesSentinel(fail, d.call, l, l.Contains) {
			return false
		}
	}
	// Every way from the failure back to the header passes a block that changes state, or
	// the round hands the next attempt what the answer asked for (a nonce).
	fail := d.block.Succs[1-d.success]
	if !l.Contains(fail) {
		return false
	}
	if takesFromAnswer(l, d) || flagChanges(l, d) {
		return l.CanRepeat(fail)
	}
	changes := st.changesRequest(d)
	goesRound := false
	for blk := range flow.Forward([]*ssa.BasicBlock{fail}, func(from, to *ssa.BasicBlock) bool {
		// (A way that skips the change only on the last round does not go round.)
		return from != l.Header && !changes(from) && l.Contains(to) && !st.lastRound(d.block.Parent(), l, from, to)
	}) {
		if blk == l.Header {
			return false // round without a change
		}
		if changes(blk) {
			goesRound = goesRound || l.CanRepeat(blk)
		}
	}
	return goesRound
}

// redirects reports whether loop l follows redirects: a call in it (or a function of the
// package it calls) sets the URL or Host of an *http.Request that another call in the loop
// sends, so that each round goes to the address the last answer named (handleRedirect(req,
// resp, &n) setting req.URL = location), not to the same one again.
func (st *state) redirects(fn *ssa.Function, l *loops.Loop) bool {
	blocks := l.Blocks(fn)
	calls := slices.Collect(flow.BlockCalls(blocks))
	sent := func(req ssa.Value, except ssa.CallInstruction) bool {
		return slices.ContainsFunc(calls, func(c ssa.CallInstruction) bool { return c != except && handed(c, req) })
	}
	for _, c := range calls {
		callee := c.Common().StaticCallee()
		if callee == nil || callee.Pkg != st.ssaPkg || len(callee.Blocks) == 0 {
			continue
		}
		for i, p := range callee.Params {
			if i >= len(c.Common().Args) || !typeis.Request(p.Type()) || !setsTarget(callee, p) {
				continue
			}
			if req := flow.Unwrap(c.Common().Args[i]); sent(req, c) {
				return true
			}
		}
	}
	return false
}

// setsTarget reports whether fn stores into the URL or Host field of the request p.
func setsTarget(fn *ssa.Function, p *ssa.Parameter) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || !flow.SameValue(fa.X, p) {
				continue
			}
			if fv := flow.FieldVar(fa); fv != nil && (fv.Name() == "URL" || fv.Name() == "Host") {
				return true
			}
		}
	}
	return false
}

// drawsAnew reports whether the loop goes round only on the program's own condition (a
// sentinel or a type it singles out: ErrAlreadyExists), and the attempt is handed a value
// made fresh in the loop from a random source (a token, an ID: keys.FreshIn) that it does not
// send as an idempotency key: each round asks for something new after a collision, which is
// not the same request again (a unique invite token drawn anew when one already exists).
func (st *state) drawsAnew(fn *ssa.Function, l *loops.Loop, d decision) bool {
	f := failuresOf(d)
	if f == AnyFailure {
		f = narrowed(d.block.Succs[1-d.success], d.call, l, l.Contains)
	}
	if f == 0 || f&^(FailOther|FailAnswered) != 0 || st.keys.SendsKey(d.call) {
		return false
	}
	inLoop := make(map[token.Pos]bool)
	for c := range flow.BlockCalls(l.Blocks(fn)) {
		inLoop[c.Pos()] = true
	}
	in := func(p token.Pos) bool { return inLoop[p] }
	cc := d.call.Common()
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		if st.keys.FreshIn(a, in) {
			return true
		}
	}
	return false
}

// bypass returns, for a loop that waits on some ways round, a position on a way from the
// failure of d round to the next attempt that passes no wait and changes nothing the attempt
// sends (case http.StatusServiceUnavailable: retries--; continue, beside a wait on 429): that
// way round hammers the dependency. NoPos when every way round waits, or changes the request.
// A test that does not judge the attempt's outcome (if attempt > 0 { sleep }, if c.backoff !=
// nil { ... }) is not followed where both its sides go round: which one a round takes is the
// count's or the configuration's, not the failure's.
func (st *state) bypass(l *loops.Loop, d decision, sleeps []Sleep) token.Pos {
	waits := make(map[*ssa.BasicBlock]bool)
	for _, sl := range sleeps {
		if sl.AfterSuccess {
			return token.NoPos // a poll's waits: not this question
		}
		if b := sl.Call.Block(); b != nil {
			waits[b] = true
		}
		if sl.At != nil && sl.At.Block() != nil {
			waits[sl.At.Block()] = true
		}
	}
	if len(waits) == 0 {
		return token.NoPos // no wait at all: the scope's own finding
	}
	if waits[d.block] {
		return token.NoPos // the decision waits before it branches (a verdict that waits: WaitOrSkipRetry)
	}
	changes := st.changesRequest(d)
	target := d.call.Block()
	type step struct {
		b      *ssa.BasicBlock
		pos    token.Pos // the last test of the answer on the way
		around bool      // the way has passed the header
	}
	type key struct {
		b      *ssa.BasicBlock
		around bool
	}
	seen := make(map[key]bool)
	start := d.call.Pos()
	if ifInstr, ok := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If); ok && ifInstr.Cond.Pos().IsValid() {
		start = ifInstr.Cond.Pos()
	}
	stack := []step{{b: d.block.Succs[1-d.success], pos: start}}
	impossible := contradicts(d)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !l.Contains(x.b) || waits[x.b] || seen[key{x.b, x.around}] {
			continue
		}
		seen[key{x.b, x.around}] = true
		if x.b == l.Header {
			x.around = true
		}
		if x.around && x.b == target {
			return x.pos
		}
		if !x.around && changes(x.b) {
			continue // (the blocks from the header to the attempt are the next attempt's)
		}
		pos := x.pos
		succs := x.b.Succs
		ifInstr, isIf := x.b.Instrs[len(x.b.Instrs)-1].(*ssa.If)
		if isIf && !x.around && st.judgesAttempt(ifInstr.Cond, d, l) {
			if p := ifInstr.Cond.Pos(); p.IsValid() {
				pos = p // the test of the answer that sends it this way
			}
		}
		var sentinel *ssa.Global
		if _, holds, ok := sentinelBranch(x.b, func(g *ssa.Global) bool { sentinel = g; return true }); ok && len(succs) == 2 && st.ownAnswer(d.call, sentinel, 0) {
			// errors.Is(err, io.EOF), where the attempt's own code returns io.EOF for an
			// answer (a 204 to a long poll): going round on it asks again, it does not retry.
			succs = []*ssa.BasicBlock{succs[1-holds]}
		}
		if isIf && len(succs) == 2 && !st.judgesAttempt(ifInstr.Cond, d, l) {
			switch r0, r1 := l.CanRepeat(succs[0]), l.CanRepeat(succs[1]); {
			case r0 && r1:
				continue // the count decides, not the failure
			case r0:
				succs = succs[:1]
			case r1:
				succs = succs[1:]
			}
		}
		for _, succ := range succs {
			if !x.around && impossible(loops.Edge{From: x.b, To: succ}) {
				continue // if err != nil { return ... } again, on a way only a failure takes: its nil side never runs
			}
			stack = append(stack, step{b: succ, pos: pos, around: x.around})
		}
	}
	return token.NoPos
}

// ownAnswer reports whether the function of the package that call calls returns the error
// variable g itself, as one of its answers, there or in the package's functions it calls (if
// resp.StatusCode == http.StatusNoContent { return io.EOF }): the program's own word for an
// outcome of this attempt, not a failure it passes on.
func (st *state) ownAnswer(call ssa.CallInstruction, g *ssa.Global, depth int) bool {
	fn := call.Common().StaticCallee()
	if fn == nil || fn.Pkg != st.ssaPkg || len(fn.Blocks) == 0 || depth > 3 {
		return false
	}
	key := ownKey{fn, g}
	if v, ok := st.ownAnswers[key]; ok {
		return v
	}
	st.ownAnswers[key] = false // in progress: recursion adds nothing
	found := false
	for ret := range flow.Returns(fn) {
		if n := len(ret.Results); n > 0 {
			if load, ok := flow.Unwrap(returned(ret.Results[n-1])).(*ssa.UnOp); ok && load.Op == token.MUL && load.X == g {
				found = true
			}
		}
	}
	for c := range flow.Calls(fn) {
		if !found && typeis.ReturnsError(c.Common().Signature()) {
			found = st.ownAnswer(c, g, depth+1)
		}
	}
	st.ownAnswers[key] = found
	return found
}

// An ownKey is a function and an error variable it may return (ownAnswer).
type ownKey struct {
	fn *ssa.Function
	g  *ssa.Global
}

// onAnswer reports whether call c works on what an attempt of the loop returned: its receiver
// or an argument comes from the decisive call or from a call that leaves the process
// (resp.Body.Close(), io.ReadAll(resp.Body), CheckResponseError(resp)).
func (st *state) onAnswer(c ssa.CallInstruction, d decision) bool {
	common := c.Common()
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	for _, a := range args {
		found := false
		flow.Backward(a, 32, func(x ssa.Value) bool {
			if call, ok := x.(*ssa.Call); ok {
				found = ssa.CallInstruction(call) == d.call || st.rem.Reach(call) == remote.ReachRemote
				return false
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// judgesAttempt reports whether v, a branch condition of loop l, is computed from what the
// attempt returned (resp.StatusCode, respErr.(RateLimitError), from the decisive call or
// another call of the loop that leaves the process) and not from a value the loop carries from
// round to round (an attempt counter): the failure decides which way it goes, not the count or
// the configuration.
func (st *state) judgesAttempt(v ssa.Value, d decision, l *loops.Loop) bool {
	outcome, counted := false, false
	flow.Backward(v, 64, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Phi:
			if x.Block() == l.Header {
				counted = true
			}
		case *ssa.Call:
			if ssa.CallInstruction(x) == d.call || l.Contains(x.Block()) && st.rem.Reach(x) == remote.ReachRemote {
				outcome = true
				return false
			}
		}
		return !counted
	})
	return outcome && !counted
}

// callerPolicy reports whether a call in loop l other than the attempt is a verdict of the
// caller's: a function value that fn is given (a parameter, or an element of one), returning a
// bool, and handed something that changes each round (the attempt number, the last error).
// Retry libraries take their waits and caps this way (strategy.Limit, strategy.Backoff).
func callerPolicy(fn *ssa.Function, l *loops.Loop, attempt ssa.CallInstruction, calls []ssa.CallInstruction) bool {
	for _, c := range calls {
		cc := c.Common()
		if c == attempt || cc.IsInvoke() || cc.StaticCallee() != nil || c.Parent() != fn {
			continue
		}
		sig, ok := cc.Value.Type().Underlying().(*types.Signature)
		if !ok || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
			continue
		}
		given := false
		flow.Backward(cc.Value, 16, func(x ssa.Value) bool {
			if p, ok := x.(*ssa.Parameter); ok && p.Parent() == fn {
				given = true
			}
			return !given
		})
		if given && slices.ContainsFunc(cc.Args, func(a ssa.Value) bool { return changesInLoop(a, l) }) {
			return true
		}
	}
	return false
}

// contextVerdict reports whether loop l goes round on the verdict of a retry policy that is
// handed a context and judges a call made in the loop (see retryPolicy).
func contextVerdict(fn *ssa.Function, l *loops.Loop) bool {
	for _, b := range l.Blocks(fn) {
		if len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		call, ok := unNot(ifInstr.Cond).(*ssa.Call)
		if !ok || !slices.ContainsFunc(call.Call.Args, func(a ssa.Value) bool { return typeis.Context(a.Type()) }) {
			continue
		}
		// It judges a call of this loop, and one of its sides goes round.
		if _, ok := retryPolicy(call, l.Contains); ok && (l.CanRepeat(b.Succs[0]) || l.CanRepeat(b.Succs[1])) {
			return true
		}
	}
	return false
}

// accepts reports whether call takes the next incoming connection of a listener: the method
// Accept of a value with net.Listener's shape (Accept, Close and Addr), whose first result is a
// connection (it has a RemoteAddr method). A method of that name on anything else (a client
// that accepts an invitation from a server) is not evidence.
func accepts(call ssa.CallInstruction) bool {
	callee := flow.Callee(call.Common())
	if callee == nil || callee.Name() != "Accept" {
		return false
	}
	sig := callee.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 0 || sig.Results().Len() != 2 || !typeis.Error(sig.Results().At(1).Type()) {
		return false
	}
	recv := sig.Recv().Type()
	return hasMethod(sig.Results().At(0).Type(), callee.Pkg(), "RemoteAddr") &&
		hasMethod(recv, callee.Pkg(), "Close") && hasMethod(recv, callee.Pkg(), "Addr")
}

// hasMethod reports whether t (or *t) has a method name.
func hasMethod(t types.Type, pkg *types.Package, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	_, isMethod := obj.(*types.Func)
	return isMethod
}

// lifecycle records a long-running loop that tries d's call again after it fails (see
// Result.Lifecycles), with the waits on that failure's side.
func (st *state) lifecycle(fn *ssa.Function, l *loops.Loop, d decision, node ast.Node, candidates *loopCandidates) {
	if accepts(d.call) {
		return // a server's accept loop: its backoff spares this machine, not a dependency
	}
	s := &Scope{Fn: fn, at: fn, Loop: l, Decisive: d.call, Lifecycle: true}
	st.setLoopSyntax(s, node, candidates)
	s.Calls = slices.Collect(flow.BlockCalls(l.Blocks(fn)))
	s.Attempts = Bound{Kind: BoundNone}
	fail := d.block.Succs[1-d.success]
	// A failure side that other ways also enter (if first && err == nil { ... }, whose false
	// edge is the join after it: timer.Reset(period) there runs whatever happened) holds no
	// wait of the failure's own: a schedule's period.
	joined := !enteredOnlyFrom(fail, d.block)
	// The failure's side: the blocks it dominates; or, when no wait is there but every way
	// from it back to the header waits, the way round (goto retry, where the wait at the
	// label serves every failure that jumps there).
	after := fail.Dominates
	if !waitsAfter(fn, fail, l.Contains) && st.waitsOnWayBack(fn, l, d) {
		round := l.WayRound(fail)
		after = func(b *ssa.BasicBlock) bool { return round[b] }
	}
	s.Wait = st.waitsOf(fn, s.Calls, func(b *ssa.BasicBlock) bool { return l.Contains(b) && after(b) }, l, d.call)
	s.Wait.Sleeps = slices.DeleteFunc(s.Wait.Sleeps, func(sl Sleep) bool {
		b := sl.Call.Block()
		return b == nil || b.Parent() != fn || !after(b) || joined
	})
	// A jittered wait made on every way round (a heartbeat's random interval at the top of the
	// loop) lies between a failure and the next attempt too; and any wait made on every way
	// round when the call reads a stream: its return, failed or not, is a disconnect, and the
	// wait is the reconnect's.
	streams := st.readsStream(d.call)
	paced := false // a wait of any kind on every way round (a ticker at the top of the loop)
	for _, sl := range st.waitsOf(fn, s.Calls, l.Contains, l, d.call).Sleeps {
		paced = paced || s.EveryRound(sl)
		if (sl.Kind == WaitJittered || streams) && s.EveryRound(sl) && !slices.ContainsFunc(s.Wait.Sleeps, func(o Sleep) bool { return o.Call == sl.Call }) {
			s.Wait.Sleeps = append(s.Wait.Sleeps, sl)
			continue
		}
		// A wait on every way round whose length the failure side chooses (if err != nil {
		// wait = time.Second } else { wait = untilExpiry() }; ...; time.Sleep(wait)): after a
		// failure, the loop waits that length.
		if s.EveryRound(sl) && len(s.Wait.Sleeps) == 0 {
			if v := chosenOnFailure(sl.Duration, fail, l); v != nil {
				s.Wait.Sleeps = append(s.Wait.Sleeps, Sleep{Call: sl.Call, Duration: v, Kind: delayKind(v, l), At: sl.At})
			}
		}
	}
	s.Wait.Sleeps = ownConditionWaitsDropped(s.Wait.Sleeps, d)
	s.Wait.Kind = combineWaits(s.Wait.Sleeps, 0)
	if s.Wait.Kind == WaitNone && (paced || joined) {
		s.Wait.Kind = WaitUnknown // it waits every round, as a poll's interval, not after a failure
	}
	s.Deadline = observesDeadline(s.Calls)
	st.res.Lifecycles = append(st.res.Lifecycles, s)
}

// chosenOnFailure returns the one value that duration d takes when the way round comes from
// fail, the failure side of the attempt: d is a phi of the loop fed, through phis, by that
// value from a block fail dominates, and by other values from the other ways round (a wait
// of the same length whatever happened is a poll's interval); nil otherwise.
func chosenOnFailure(d ssa.Value, fail *ssa.BasicBlock, l *loops.Loop) ssa.Value {
	var found ssa.Value
	var others []ssa.Value
	several := false
	same := func(a, b ssa.Value) bool {
		if sameValue(a, b) {
			return true
		}
		la, ok1 := flow.Unwrap(a).(*ssa.UnOp)
		lb, ok2 := flow.Unwrap(b).(*ssa.UnOp)
		return ok1 && ok2 && la.Op == token.MUL && lb.Op == token.MUL && flow.PlaceOf(la.X) == flow.PlaceOf(lb.X) // every, loaded twice
	}
	seen := make(map[*ssa.Phi]bool)
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		phi, ok := flow.Unwrap(v).(*ssa.Phi)
		if !ok || seen[phi] || !l.Contains(phi.Block()) {
			return
		}
		seen[phi] = true
		for i, e := range phi.Edges {
			pred := phi.Block().Preds[i]
			switch {
			case !l.Contains(pred):
			case fail.Dominates(pred):
				if found != nil && !same(found, e) {
					several = true
				}
				found = e
			default:
				if inner, ok := flow.Unwrap(e).(*ssa.Phi); ok && l.Contains(inner.Block()) {
					walk(e)
				} else {
					others = append(others, e)
				}
			}
		}
	}
	if d != nil {
		walk(d)
	}
	if several || found == nil || len(others) == 0 || slices.ContainsFunc(others, func(o ssa.Value) bool { return same(o, found) }) {
		return nil
	}
	return found
}

// failureSetsWait reports whether loop l waits before its attempt on every round for a length
// that the failure side of decision d chooses (chosenOnFailure): the wait after a failure.
func failureSetsWait(fn *ssa.Function, l *loops.Loop, d decision) bool {
	fail := d.block.Succs[1-d.success]
	at := d.call.Block()
	var blocks []*ssa.BasicBlock
	for _, b := range l.Blocks(fn) {
		if b.Dominates(at) {
			blocks = append(blocks, b)
		}
	}
	for _, sl := range sleeps(slices.Collect(flow.BlockCalls(blocks)), l) {
		if chosenOnFailure(sl.Duration, fail, l) != nil {
			return true
		}
	}
	return false
}

// ownConditionWaitsDropped returns sleeps without the waits made only once a test singled out
// the program's own condition in d's failure (errors.Is(err, ErrLockNotAcquired): another node
// holds the lock, poll for it), when other waits remain: the wait after a failure of the
// dependency is the one that must spread the clients, and the scope's one wait finding is
// about it.
func ownConditionWaitsDropped(sleeps []Sleep, d decision) []Sleep {
	kept := slices.DeleteFunc(slices.Clone(sleeps), func(sl Sleep) bool {
		at := sl.Call.Block()
		if sl.At != nil {
			at = sl.At.Block()
		}
		return ownCondition(at, d)
	})
	if len(kept) == 0 {
		return sleeps
	}
	return kept
}

// ownCondition reports whether block b is reached from d only through the side of a test that
// singles out the program's own condition in d.call's error (errors.Is(err, ErrEndOfInput),
// err == errLockHeld): some block between d's and b on b's dominator tree is that side.
func ownCondition(b *ssa.BasicBlock, d decision) bool {
	all := func(*ssa.BasicBlock) bool { return true }
	for test, side := range takenSides(b, d.block) {
		cond := test.Instrs[len(test.Instrs)-1].(*ssa.If).Cond
		match := test.Succs[0]
		if countNots(cond)%2 == 1 {
			match = test.Succs[1]
		}
		if side != match {
			continue
		}
		if target, ok := singlesOut(unNot(cond), d.call, all); ok {
			if on, typed := targetKind(target, unNot(cond)); !typed && on == FailOther {
				return true
			}
		}
	}
	return false
}

// takenSides yields, for b and the blocks above it on its dominator tree up to stop (not
// included), each that is entered only from a block ending in a test: that test's block and
// the side taken (the block itself).
func takenSides(b, stop *ssa.BasicBlock) iter.Seq2[*ssa.BasicBlock, *ssa.BasicBlock] {
	return func(yield func(test, side *ssa.BasicBlock) bool) {
		for ; b != nil && b != stop; b = b.Idom() {
			if len(b.Preds) != 1 {
				continue
			}
			p := b.Preds[0]
			if _, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If); ok && !yield(p, b) {
				return
			}
		}
	}
}

// enteredOnlyFrom reports whether every way into b from outside the part of the function that
// b dominates comes from pred: the edge pred -> b dominates what b does (a success side that a
// failure's way does not join: if err != nil && last { return }; if data != nil { break }
// joins both outcomes at the test of data).
func enteredOnlyFrom(b, pred *ssa.BasicBlock) bool {
	for _, p := range b.Preds {
		if p != pred && !b.Dominates(p) {
			return false
		}
	}
	return true
}
