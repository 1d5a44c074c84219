package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
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
			d, kind := st.classifyLoop(fn, l)
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
			s := &Scope{Fn: fn, at: fn, Loop: l, Decisive: d.call}
			s.Attempts = loopBound(fn, l, d.call)
			if st.recovers(l, d, s.Attempts) {
				continue // it changes what it sends, once: a recovery, not a retry
			}
			st.setLoopSyntax(s, node, candidates)
			s.Calls = slices.Collect(flow.BlockCalls(l.Blocks(fn)))
			if d.policy && s.Attempts.Kind == BoundNone && policyMayCount(d) {
				s.Attempts.Kind = BoundUnknown // the policy may count attempts itself
			}
			s.Wait = st.waitsOf(fn, s.Calls, l.Contains, l, d.call)
			for i, sl := range s.Wait.Sleeps {
				if b := sl.Call.Block(); b != nil && b.Parent() == fn && d.block.Succs[d.success].Dominates(b) {
					s.Wait.Sleeps[i].AfterSuccess = true
				}
			}
			s.Wait.Bypass = st.bypass(l, d, s.Wait.Sleeps)
			s.Failover = failover(l, d, s.Attempts)
			s.Deadline = observesDeadline(s.Calls)
			if s.Deadline == DeadlineContext && s.Attempts.Kind == BoundNone && neverLeavesOnFailure(l, d) && !knowledge.EndsWithContext(flow.Callee(d.call.Common())) {
				// It hands its context to the attempt, but no failure leaves the loop: once the
				// context is done, every attempt fails at once and the loop goes round for ever.
				s.Deadline, s.KeepsGoing = DeadlineNone, true
			}
			if s.Deadline == DeadlineNone && (selectsOnSignal(fn, l.Contains) || stopsOnClose(l) || st.stopsFromElsewhere(fn, l)) {
				s.Deadline, s.KeepsGoing = DeadlineContext, false // it runs until the program stops it
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
		// (pgErr.Code == undefinedFunction: create it, and ask again), not from a failure of
		// the dependency, which a step such as reconnecting does not cure. Without a count,
		// the answer must name it in a field the program reads (isUnauthorized(err): errors.As,
		// then e.Code == 16): a verdict of the error's own method (e.RetryableRead()) may
		// hold for a failed connection.
		f := failuresOf(d)
		if f == AnyFailure {
			f = narrowed(d.block.Succs[1-d.success], d.call, l, l.Contains)
		}
		if f != FailOther || b.Kind != BoundConst && !namesCause(d.block.Succs[1-d.success], d.call, l, l.Contains) {
			return false
		}
	}
	changes := st.changesRequest(d)
	// Every way from the failure back to the header passes a block that changes state.
	fail := d.block.Succs[1-d.success]
	seen := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{fail}
	goesRound := false
	for len(stack) > 0 {
		blk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[blk] || !l.Contains(blk) {
			continue
		}
		seen[blk] = true
		if blk == l.Header {
			return false // round without a change
		}
		if changes(blk) {
			goesRound = goesRound || l.CanRepeat(blk)
			continue
		}
		stack = append(stack, blk.Succs...)
	}
	return goesRound
}

// failover reports whether the attempt d.call is handed a target the loop picks anew each
// round (b := pool.next(); do(req, b)), which the failure side marks (a store into a field of
// it, or an atomic write of one: b.broken.Store(true)) before the loop goes round.
//
// Or, in a loop with a bound, the attempt is made through a connection the round takes anew
// (wc, err := pool.take(); ...; err = wc.Start(msg)) that the failure side closes before
// going round: the next round tries another connection, as many as the bound allows.
func failover(l *loops.Loop, d decision, b Bound) bool {
	counts := countsTargets(l, d.block.Parent())
	fail := d.block.Succs[1-d.success]
	cc := d.call.Common()
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		var pick ssa.Value
		switch x := flow.Unwrap(a).(type) {
		case *ssa.Call:
			pick = x
		case *ssa.Extract:
			if _, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
				pick = x // wc, err := pool.take()
			}
		}
		if pick == nil || !l.Contains(pick.(ssa.Instruction).Block()) {
			continue
		}
		if counts && marks(pick, fail, l) || b.Kind != BoundNone && closes(pick, fail) {
			return true
		}
	}
	return false
}

// closes reports whether a block dominated by fail closes target, by the method that makes
// its type an io.Closer.
func closes(target ssa.Value, fail *ssa.BasicBlock) bool {
	refs := target.Referrers()
	if refs == nil || !types.Implements(target.Type(), closerIface) {
		return false
	}
	for _, r := range *refs {
		c, ok := r.(ssa.CallInstruction)
		if !ok || !fail.Dominates(c.Block()) {
			continue
		}
		cc := c.Common()
		if m := flow.Callee(cc); m != nil && m.Name() == "Close" && m.Signature().Recv() != nil && (cc.IsInvoke() && cc.Value == target || len(cc.Args) > 0 && cc.Args[0] == target) {
			return true
		}
	}
	return false
}

// closerIface is io.Closer's method set: Close() error.
var closerIface = types.NewInterfaceType([]*types.Func{
	types.NewFunc(token.NoPos, nil, "Close", types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Universe.Lookup("error").Type())), false)),
}, nil).Complete()

// countsTargets reports whether a test of loop l compares a number with the length of a
// collection (for range len(backends)): as many rounds as there are targets.
func countsTargets(l *loops.Loop, fn *ssa.Function) bool {
	for _, cmp := range intTests(fn, l) {
		found := false
		for _, side := range []ssa.Value{cmp.X, cmp.Y} {
			flow.Backward(side, 16, func(x ssa.Value) bool {
				if c, ok := x.(*ssa.Call); ok {
					if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "len" {
						found = true
					}
				}
				return !found
			})
		}
		if found {
			return true
		}
	}
	return false
}

// marks reports whether a block on the failure side, from fail, writes into target: a store
// into one of its fields, or an atomic write of one.
func marks(target ssa.Value, fail *ssa.BasicBlock, l *loops.Loop) bool {
	refs := target.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Referrers() == nil || !l.Contains(fa.Block()) || !fail.Dominates(fa.Block()) {
			continue
		}
		for _, u := range *fa.Referrers() {
			switch u := u.(type) {
			case *ssa.Store:
				if u.Addr == fa {
					return true
				}
			case ssa.CallInstruction:
				// b.broken.Store(deadline): a write through a sync/atomic value (a lock or a
				// read of the field marks nothing).
				if cc := u.Common(); len(cc.Args) > 0 && cc.Args[0] == fa && atomicWrite(flow.Callee(cc)) {
					return true
				}
			}
		}
	}
	return false
}

// atomicWrite reports whether fn is a method of a sync/atomic type that writes its value.
func atomicWrite(fn *types.Func) bool {
	id := flow.ID(fn)
	return id.Pkg == "sync/atomic" && id.Recv != "" && oneOf(id.Name, "Store", "Add", "Swap", "CompareAndSwap", "And", "Or")
}

// changesRequest returns a test of whether a block changes what the attempt d.call sends next:
// it stores into a field or variable that the attempt reads on the way to its call, or makes a
// call that leaves the process or may fail (a refreshed token, a re-registration).
func (st *state) changesRequest(d decision) func(*ssa.BasicBlock) bool {
	// What the attempt reads: the fields and variables loaded on the way to its call.
	read := make(map[any]bool)
	for _, v := range append([]ssa.Value{d.call.Common().Value}, d.call.Common().Args...) {
		flow.Backward(v, 32, func(x ssa.Value) bool {
			if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
				switch a := load.X.(type) {
				case *ssa.FieldAddr:
					read[flow.FieldVar(a)] = true
				case *ssa.Global:
					read[a] = true
				}
			}
			return true
		})
	}
	return func(blk *ssa.BasicBlock) bool {
		for _, instr := range blk.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				switch a := x.Addr.(type) {
				case *ssa.FieldAddr:
					if fv := flow.FieldVar(a); fv != nil && read[fv] {
						return true
					}
				case *ssa.Global:
					if read[a] {
						return true
					}
				}
			case ssa.CallInstruction:
				if _, started := x.(*ssa.Go); started || x == d.call || sleepDuration(x) != nil || st.onAnswer(x, d) {
					continue // (closing or reading the answer changes nothing the next attempt sends)
				}
				if r := st.rem.Reach(x); r == remote.ReachRemote || fallible(x) && (r == remote.ReachUnknown || st.ownFunc(x)) {
					return true
				}
			}
		}
		return false
	}
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
			stack = append(stack, step{b: succ, pos: pos, around: x.around})
		}
	}
	return token.NoPos
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

// accepts reports whether call takes the next incoming connection of a listener: a method
// Accept whose first result is a connection (it has a RemoteAddr method), as net.Listener's.
func accepts(call ssa.CallInstruction) bool {
	callee := flow.Callee(call.Common())
	if callee == nil || callee.Name() != "Accept" {
		return false
	}
	res := callee.Signature().Results()
	if res.Len() == 0 {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(res.At(0).Type(), true, callee.Pkg(), "RemoteAddr")
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
	s.Wait = st.waitsOf(fn, s.Calls, func(b *ssa.BasicBlock) bool { return l.Contains(b) && fail.Dominates(b) }, l, d.call)
	s.Wait.Sleeps = slices.DeleteFunc(s.Wait.Sleeps, func(sl Sleep) bool {
		b := sl.Call.Block()
		return b == nil || b.Parent() != fn || !fail.Dominates(b)
	})
	// A jittered wait made on every way round (a heartbeat's random interval at the top of the
	// loop) lies between a failure and the next attempt too; and any wait made on every way
	// round when the call reads a stream: its return, failed or not, is a disconnect, and the
	// wait is the reconnect's.
	streams := st.readsStream(d.call)
	for _, sl := range st.waitsOf(fn, s.Calls, l.Contains, l, d.call).Sleeps {
		if (sl.Kind == WaitJittered || streams) && s.EveryRound(sl) && !slices.ContainsFunc(s.Wait.Sleeps, func(o Sleep) bool { return o.Call == sl.Call }) {
			s.Wait.Sleeps = append(s.Wait.Sleeps, sl)
		}
	}
	s.Wait.Kind = combineWaits(s.Wait.Sleeps, 0)
	s.Deadline = observesDeadline(s.Calls)
	st.res.Lifecycles = append(st.res.Lifecycles, s)
}

// loopCandidates are the loop statements and labels of one function's syntax.
type loopCandidates struct {
	loops  []ast.Stmt // *ast.ForStmt, *ast.RangeStmt over an integer
	labels map[string]*ast.LabeledStmt
	gotos  map[string][]*ast.BranchStmt
	parent map[ast.Stmt]*ast.LabeledStmt // label of a labelled loop
}

// loopNodes collects the loops, labels and gotos of a function body, not descending into
// nested function literals (they are functions of their own).
func loopNodes(pass *analysis.Pass, syntax ast.Node) *loopCandidates {
	c := &loopCandidates{
		labels: make(map[string]*ast.LabeledStmt),
		gotos:  make(map[string][]*ast.BranchStmt),
		parent: make(map[ast.Stmt]*ast.LabeledStmt),
	}
	var body ast.Node
	switch s := syntax.(type) {
	case *ast.FuncDecl:
		body = s.Body
	case *ast.FuncLit:
		body = s.Body
	}
	if body == nil || reflect.ValueOf(body).IsNil() {
		return c
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			c.loops = append(c.loops, n)
		case *ast.RangeStmt:
			// Ranges over integers, and over a ticker's channel (each tick an attempt).
			if t := pass.TypesInfo.TypeOf(n.X); t != nil && (typeis.Integer(t) || typeis.TimeChan(t)) {
				c.loops = append(c.loops, n)
			}
		case *ast.LabeledStmt:
			c.labels[n.Label.Name] = n
			if inner, ok := n.Stmt.(*ast.ForStmt); ok {
				c.parent[inner] = n
			}
			if inner, ok := n.Stmt.(*ast.RangeStmt); ok {
				c.parent[inner] = n
			}
		case *ast.BranchStmt:
			if n.Tok == token.GOTO && n.Label != nil {
				c.gotos[n.Label.Name] = append(c.gotos[n.Label.Name], n)
			}
		}
		return true
	})
	return c
}

// loopSyntax returns the statement that gave rise to natural loop l: a for loop or a range
// over an integer (when the loop's header is one of theirs), or a labelled statement that a
// goto jumps back to. Range loops over collections, channels and functions give nil: they
// iterate.
func (st *state) loopSyntax(fn *ssa.Function, l *loops.Loop, c *loopCandidates, taken map[ast.Node]bool) ast.Node {
	comment := l.Header.Comment
	switch {
	case strings.HasPrefix(comment, "for.") || strings.HasPrefix(comment, "rangeint.") || strings.HasPrefix(comment, "rangechan."):
	default:
		if ls := c.labels[comment]; ls != nil && len(c.gotos[comment]) > 0 {
			return ls
		}
		return nil
	}
	lo, hi := loopSpan(fn, l)
	if !lo.IsValid() {
		return nil
	}
	var best ast.Stmt
	for _, n := range c.loops {
		if taken[n] || n.Pos() > lo || hi >= n.End() {
			continue
		}
		if best == nil || n.Pos() > best.Pos() {
			best = n
		}
	}
	if best == nil {
		return nil
	}
	return best
}

// loopSpan returns the first and last positions of the instructions of loop l (NoPos when
// none has one).
func loopSpan(fn *ssa.Function, l *loops.Loop) (lo, hi token.Pos) {
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			p := instr.Pos()
			if _, isPhi := instr.(*ssa.Phi); isPhi || !p.IsValid() {
				// A phi's position is its variable's declaration, maybe before the loop.
				continue
			}
			if !lo.IsValid() || p < lo {
				lo = p
			}
			if p > hi {
				hi = p
			}
		}
	}
	return lo, hi
}

// setLoopSyntax fills in a loop scope's syntax.
func (st *state) setLoopSyntax(s *Scope, node ast.Node, c *loopCandidates) {
	s.Node, s.Body = node, node
	switch n := node.(type) {
	case *ast.ForStmt:
		s.Kind, s.Stmt, s.From, s.To = Loop, n, n.Pos(), n.End()
		if n.Init != nil {
			s.From = n.Init.End()
		}
		if ls := c.parent[n]; ls != nil {
			s.Stmt = ls
		}
	case *ast.RangeStmt:
		s.Kind, s.Stmt, s.From, s.To = Loop, n, n.Body.Pos(), n.End()
		if ls := c.parent[n]; ls != nil {
			s.Stmt = ls
		}
	case *ast.LabeledStmt:
		s.Kind, s.Stmt, s.From, s.To = Goto, n, n.Pos(), n.End()
		for _, g := range c.gotos[n.Label.Name] {
			s.To = max(s.To, g.End())
		}
	}
}

// recursion finds a function that calls itself again after a failure: the recursive call is
// only reachable through the failure side of a test of a call's outcome.
func (st *state) recursion(fn *ssa.Function) *Scope {
	decl, ok := flow.Syntax(fn).(*ast.FuncDecl)
	if !ok || fn.Object() == nil {
		return nil
	}
	all := func(*ssa.BasicBlock) bool { return true }
	var s *Scope
	var again []retryCall // the recursive calls made after a failure
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Common().StaticCallee() != fn || !st.sameOperation(fn, call) {
				continue
			}
			if fallsBack(fn, call) {
				return nil // it asks once more, differently: a fallback, not a retry
			}
			for _, d := range decisions(fn, all) {
				failure := d.block.Succs[1-d.success]
				if d.call == ssa.CallInstruction(call) || !failure.Dominates(b) || d.block.Succs[d.success].Dominates(b) {
					continue
				}
				again = append(again, retryCall{call, d})
				if s == nil {
					s = &Scope{Kind: Recursion, Fn: fn, at: fn, Node: decl, Body: decl, From: decl.Pos(), To: decl.End(), Decisive: d.call}
				}
				break
			}
		}
	}
	if s == nil {
		return nil
	}
	s.Calls = slices.Collect(flow.Calls(fn))
	s.Attempts = recursionBound(fn, again)
	s.Wait = st.waitsOf(fn, s.Calls, all, nil, nil)
	if steppedDelays(fn, again, s.Wait.Sleeps) {
		s.Wait.Kind = combineWaits(s.Wait.Sleeps, 0)
	}
	s.Wait.Bypass = recursionBypass(again, s.Wait.Sleeps)
	s.Deadline = observesDeadline(slices.DeleteFunc(slices.Clone(s.Calls), func(c ssa.CallInstruction) bool {
		return c.Common().StaticCallee() == fn // passing ctx to itself bounds nothing
	}))
	ds := decisions(fn, all)
	if s.Wait.Kind == WaitNone && !slices.ContainsFunc(again, func(a retryCall) bool { return !afterHook(a.call) && !st.afterStep(a, ds) }) {
		// if e := c.RetryFunc(ctx, req, err, n); e != nil { return e }; return c.do(...):
		// a hook the program is given decides each way back, handed the context it may wait on
		// (or the way back recovers first: a 401 answered by a successful re-authentication).
		s.Wait.Kind = WaitUnknown
		if s.Deadline == DeadlineNone {
			s.Deadline = DeadlineContext
		}
	}
	return s
}

// steppedDelays marks as backoff the fixed waits among sleeps whose delay is computed from a
// parameter that the recursive calls step (run(..., attempt+1, ...) sleeping delay(attempt)):
// the delay changes with the attempts, as one computed from a loop's counter does. It reports
// whether it marked one.
func steppedDelays(fn *ssa.Function, again []retryCall, sleeps []Sleep) bool {
	stepped := make(map[*ssa.Parameter]bool)
	for _, a := range again {
		for i, arg := range a.call.Call.Args {
			if b, ok := flow.Unwrap(arg).(*ssa.BinOp); ok && i < len(fn.Params) && (b.Op == token.ADD || b.Op == token.SUB) && flow.SameValue(b.X, fn.Params[i]) {
				stepped[fn.Params[i]] = true
			}
		}
	}
	marked := false
	for i, sl := range sleeps {
		if sl.Kind != WaitFixed || sl.Duration == nil {
			continue
		}
		flow.Backward(sl.Duration, 64, func(x ssa.Value) bool {
			for p := range stepped {
				if flow.SameValue(x, p) {
					sleeps[i].Kind, marked = WaitBackoff, true
				}
			}
			return sleeps[i].Kind == WaitFixed
		})
	}
	return marked
}

// afterStep reports whether the recursive call a.call runs only once another call, one that
// leaves the process or a fallible function of the program's own, succeeded after the failure
// that sends it back (err = c.Reauthenticate(ctx, tok); if err != nil { return }; return
// c.do(...)): the way back recovers before it sends again.
func (st *state) afterStep(a retryCall, ds []decision) bool {
	for b := a.call.Block(); b != nil && b != a.d.block; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		p := b.Preds[0]
		for _, o := range ds {
			if o.block == p && b == p.Succs[o.success] && !o.policy && o.call != a.d.call && o.call != ssa.CallInstruction(a.call) &&
				(st.rem.Reach(o.call) == remote.ReachRemote || st.ownFunc(o.call)) {
				return true
			}
		}
	}
	return false
}

// afterHook reports whether call runs only once a hook said go on: a block that dominates it
// ends in a test, against nil, of the error that a function value (a field or parameter of
// func type, or an interface's method) returns when handed a context, and call is on the side
// where that error is nil.
func afterHook(call *ssa.Call) bool {
	for b := call.Block(); b != nil; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		pred := b.Preds[0]
		cmp := equality(pred)
		if cmp == nil {
			continue
		}
		x, y := cmp.X, cmp.Y
		if flow.IsNil(x) {
			x, y = y, x
		}
		hook, ok := flow.Unwrap(x).(*ssa.Call)
		if !ok || !flow.IsNil(y) || hook.Call.StaticCallee() != nil ||
			!slices.ContainsFunc(hook.Call.Args, func(a ssa.Value) bool { return typeis.Context(a.Type()) }) {
			continue
		}
		nilSide := 0 // the successor taken when the error is nil
		if cmp.Op == token.NEQ {
			nilSide = 1
		}
		if pred.Succs[nilSide] == b {
			return true
		}
	}
	return false
}

// A retryCall is a recursive call a retrying function makes after a failure, with the test of
// the outcome that sends it there.
type retryCall struct {
	call *ssa.Call
	d    decision
}

// recursionBypass returns, when some of the recursive calls made after a failure wait first
// and another does not (a 429 that sleeps as told beside a 502 that calls again at once), the
// test that sends the failure to the one that does not; NoPos otherwise.
func recursionBypass(again []retryCall, sleeps []Sleep) token.Pos {
	// A wait before the recursive call; one in computing its arguments (the bucket locked
	// again for the same request) belongs to the next attempt, as the blocks from a loop's
	// header to its attempt do.
	waited := func(c *ssa.Call) bool {
		return slices.ContainsFunc(sleeps, func(sl Sleep) bool {
			v, isValue := sl.Call.(ssa.Value)
			return sl.Call.Parent() == c.Parent() && flow.Before(sl.Call, c) && !(isValue && slices.Contains(c.Call.Args, v))
		})
	}
	some := false
	for _, a := range again {
		some = some || waited(a.call)
	}
	if !some {
		return token.NoPos
	}
	for _, a := range again {
		if !waited(a.call) {
			if ifInstr, ok := a.d.block.Instrs[len(a.d.block.Instrs)-1].(*ssa.If); ok && ifInstr.Cond.Pos().IsValid() {
				return ifInstr.Cond.Pos()
			}
			return a.call.Pos()
		}
	}
	return token.NoPos
}

// sameOperation reports whether a recursive call repeats the call it is in: every argument is
// the same parameter, a constant, a counter (a parameter plus or minus a constant), a
// resource acquired again in the process for the same request (see reacquired), or anything
// for a parameter the function only hands back (carriedOnly: the last error, returned once
// the attempts run out). Recursion over smaller data (path[1:], node.Next) walks a structure;
// it does not retry.
func (st *state) sameOperation(fn *ssa.Function, call *ssa.Call) bool {
	args := call.Common().Args
	if len(args) != len(fn.Params) {
		return false
	}
	for i, a := range args {
		p := fn.Params[i]
		if carriedOnly(fn, p, i) {
			continue
		}
		switch a := flow.Unwrap(a).(type) {
		case *ssa.Const:
		case *ssa.BinOp:
			if _, ok := flow.IntConst(a.Y); !ok || !flow.SameValue(a.X, p) || (a.Op != token.ADD && a.Op != token.SUB) {
				return false
			}
		case *ssa.Call:
			if !flow.SameValue(a, p) && !st.reacquired(fn, a, p) {
				return false
			}
		default:
			if !flow.SameValue(a, p) {
				return false
			}
		}
	}
	return true
}

// carriedOnly reports whether parameter p (the i-th) of fn shapes nothing fn does: it is only
// returned, or handed on to fn itself in the same place (run(..., attempt+1, lastErr)); also
// through the variable it is spilled to (a function with a defer keeps its parameters there).
func carriedOnly(fn *ssa.Function, p *ssa.Parameter, i int) bool {
	used := false
	var only func(v ssa.Value, depth int) bool
	only = func(v ssa.Value, depth int) bool {
		refs := v.Referrers()
		if refs == nil || depth > 1 {
			return false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.Return:
				used = true
			case *ssa.Call:
				args := r.Call.Args
				if r.Call.StaticCallee() != fn || i >= len(args) || args[i] != v || slices.Index(args, v) != i {
					return false
				}
			case *ssa.Store:
				a, ok := r.Addr.(*ssa.Alloc)
				if !ok || r.Val != v || a.Referrers() == nil {
					return false
				}
				if resultSlot(a) {
					used = true // return ..., v in a function with a defer: stored into the result
					continue
				}
				for _, ar := range *a.Referrers() {
					switch ar := ar.(type) {
					case *ssa.Store:
						if ar.Val != v {
							return false // assigned something else too
						}
					case *ssa.UnOp:
						if ar.Op != token.MUL || !only(ar, depth+1) {
							return false
						}
					case *ssa.DebugRef:
					default:
						return false
					}
				}
			default:
				return false
			}
		}
		return true
	}
	return only(p, 0) && used
}

// resultSlot reports whether a is where a function with a defer keeps a result: what is
// loaded from it is only returned.
func resultSlot(a *ssa.Alloc) bool {
	loaded := false
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store, *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL || r.Referrers() == nil {
				return false
			}
			for _, lr := range *r.Referrers() {
				if _, ret := lr.(*ssa.Return); !ret {
					return false
				}
			}
			loaded = true
		default:
			return false
		}
	}
	return loaded
}

// reacquired reports whether c, the argument a recursive call of fn passes for parameter p,
// acquires again, in the process, what p held for the same request (a rate-limit bucket
// looked up again for the route: c.request(ctx, method, route, body, c.bucketFor(route))): a
// call of a function of the package that stays in the process, whose arguments are fn's other
// parameters (not p, whose data a walk would step through; not the attempt's result, whose
// data a redirect or the next page follows) or constants. A value fetched from a remote
// dependency (a refreshed token) changes what is sent: a recovery, not a retry.
func (st *state) reacquired(fn *ssa.Function, c *ssa.Call, p *ssa.Parameter) bool {
	callee := c.Call.StaticCallee()
	if callee == nil || callee.Pkg != st.ssaPkg || callee == fn || st.rem.Reach(c) != remote.ReachLocal {
		return false
	}
	for i, a := range c.Call.Args {
		switch a := flow.Unwrap(a).(type) {
		case *ssa.Const:
		case *ssa.Parameter:
			if a.Parent() != fn || a == p && !returnsParam(callee, i) {
				return false
			}
		case *ssa.UnOp:
			// The receiver's own state (s.limiter.Lock(b)): a field of another parameter.
			fa, ok := a.X.(*ssa.FieldAddr)
			if !ok || a.Op != token.MUL {
				return false
			}
			if !slices.ContainsFunc(fn.Params, func(x *ssa.Parameter) bool { return x != p && flow.SameValue(fa.X, x) }) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// returnsParam reports whether every return of fn gives back its parameter i itself (a lock
// that waits for the bucket it is given and returns it): what it returns is what it was
// given, acquired again, not the next item of a walk.
func returnsParam(fn *ssa.Function, i int) bool {
	if i >= len(fn.Params) || fn.Signature.Results().Len() != 1 {
		return false
	}
	n := 0
	for ret := range flow.Returns(fn) {
		if len(ret.Results) != 1 || flow.Unwrap(ret.Results[0]) != fn.Params[i] {
			return false
		}
		n++
	}
	return n > 0
}

// fallsBack reports whether the recursive call passes, for a parameter that shapes what the
// function sends, a constant that turns off the test guarding the call (initiate(ctx, from)
// calls initiate(ctx, "") under if from != ""): it recurses at most once, with a different
// request, as a fallback for a peer that refused the first form.
func fallsBack(fn *ssa.Function, call *ssa.Call) bool {
	for i, a := range call.Common().Args {
		k, ok := flow.Unwrap(a).(*ssa.Const)
		if !ok || k.Value == nil || i >= len(fn.Params) {
			continue
		}
		p := fn.Params[i]
		guards, other := 0, false
		for _, ref := range *p.Referrers() {
			if guardOff(ref, p, k, call.Block()) {
				guards++
			} else if b, isBin := ref.(*ssa.BinOp); !isBin || !comparison(b.Op) {
				other = true // used for what it says, not only tested (duration/time.Second)
			}
		}
		if guards > 0 && other {
			return true
		}
	}
	return false
}

// comparison reports whether op compares (==, !=, <, <=, >, >=).
func comparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// guardOff reports whether instr is a comparison of p with a constant that a block ending in a
// branch on it uses to guard blk, and that sends control away from blk when p is k.
func guardOff(instr ssa.Instruction, p *ssa.Parameter, k *ssa.Const, blk *ssa.BasicBlock) bool {
	cmp, ok := instr.(*ssa.BinOp)
	if !ok || !comparison(cmp.Op) {
		return false
	}
	other, op := cmp.Y, cmp.Op
	if cmp.Y == p {
		other, op = cmp.X, mirror(cmp.Op)
	}
	c, ok := other.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != k.Value.Kind() {
		return false
	}
	holds := constant.Compare(k.Value, op, c.Value) // the comparison's value when p is k
	for _, ref := range *cmp.Referrers() {
		if ifInstr, ok := ref.(*ssa.If); ok {
			away := ifInstr.Block().Succs[1] // the side not taken when p is k
			if !holds {
				away = ifInstr.Block().Succs[0]
			}
			if away.Dominates(blk) {
				return true
			}
		}
	}
	return false
}

// recursionBound: a recursion that passes a parameter plus or minus a constant to itself is
// bounded by that parameter (checked before recursing); one of its ways back that passes the
// count on unchanged (a 429 that calls again with the same sequence number) is not.
func recursionBound(fn *ssa.Function, again []retryCall) Bound {
	for _, a := range again {
		if !counts(fn, a.call) {
			return Bound{Kind: BoundNone}
		}
	}
	return Bound{Kind: BoundVar}
}

// counts reports whether call passes one of fn's parameters plus or minus a constant.
func counts(fn *ssa.Function, call *ssa.Call) bool {
	for i, a := range call.Common().Args {
		bin, ok := a.(*ssa.BinOp)
		if !ok || i >= len(fn.Params) || bin.X != fn.Params[i] {
			continue
		}
		if _, ok := flow.IntConst(bin.Y); ok && (bin.Op == token.SUB || bin.Op == token.ADD) {
			return true
		}
	}
	return false
}

// policyMayCount reports whether the retry policy that decides d may hold a limit on attempts
// of its own (see countless).
func policyMayCount(d decision) bool {
	ifInstr, ok := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If)
	if !ok {
		return true
	}
	call, ok := unNot(ifInstr.Cond).(*ssa.Call)
	return !ok || !countless(call)
}

// countless reports whether a verdict call cannot count attempts: a plain function (no
// receiver, no captured variables, called statically) handed no number, such as
// isConflict(err). A method, a closure, a function value or interface keeps state, and a
// number may be the attempt: those may hold a limit of their own.
func countless(call *ssa.Call) bool {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Signature.Recv() != nil || len(fn.FreeVars) > 0 {
		return false
	}
	for _, a := range call.Call.Args {
		if typeis.Integer(a.Type()) {
			return false
		}
	}
	return true
}

// neverLeavesOnFailure reports whether loop l cannot be left once its decision d has gone the
// failure way: no exit is reachable from the failure side before control is back at the
// decision, through the header and whatever the next round does before it (a test of the
// context at the top of the round is a way out).
func neverLeavesOnFailure(l *loops.Loop, d decision) bool {
	seen := map[*ssa.BasicBlock]bool{d.block: true}
	stack := []*ssa.BasicBlock{d.block.Succs[1-d.success]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		if !l.Contains(b) {
			return false
		}
		seen[b] = true
		stack = append(stack, b.Succs...)
	}
	return true
}
