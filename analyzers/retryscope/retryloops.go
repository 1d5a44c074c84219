package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// A loop retries (classifyLoop's retrying): a call in it is tested, and the loop leaves on
// success and goes round on failure. Leaving on success means: from the success side, control
// can leave the loop by an edge that the failure side cannot reach (so a loop whose two sides
// merge before leaving, or that leaves only when a later call fails, is not a retry), without
// going through the failure side of another test, and not only when the call yields nothing
// (a loop that goes round on each result and stops when none is left drains a source). And
// the call must not be made on a different element each time round (iteration over a
// collection is not retry).

// The kinds of loop classifyLoop tells apart.
const (
	other     = iota
	retrying  // a retry loop (see above)
	lifecycle // a long-running loop that tries a call again after it fails (Result.Lifecycles)
)

// classifyLoop finds what loop l is: a retry loop, with its decision; else a lifecycle, with the
// decision on the call it tries again after a failure, when it goes round on that failure
// after a wait (for { conn, err := dial(); if err != nil { sleep(5s); continue }; serve(conn) }:
// it never leaves on success, but every client of a restarted server comes back at once).
// ls are fn's loops (loops.Of).
func (st *state) classifyLoop(fn *ssa.Function, l *loops.Loop, ls []*loops.Loop) (decision, int) {
	var inner []*loops.Loop // loops nested in l
	for _, in := range ls {
		if in.Header != l.Header && l.Contains(in.Header) {
			inner = append(inner, in)
		}
	}
	ds := slices.DeleteFunc(decisions(fn, l.Contains), func(d decision) bool {
		if walksOutcome(inner, d) {
			return true
		}
		// A verdict (flag, err) of a callback the helper is handed: its flag's test, and the
		// test of its error when its flag is tested first (stop, err := f(ctx); if stop {
		// return err }; if err == nil { return nil }), go round on a failure only if some
		// callback the package hands in asks to with one.
		if p := paramFlag(d); p != nil {
			return !st.asksAgain(p, againValue(d.block, l), 0)
		}
		if d.policy && st.ignoredVerdict(d) {
			return true
		}
		if c, ok := d.call.(*ssa.Call); ok && callsParam(c) {
			if b := flagTest(c, l); b != nil && b != d.block && b.Dominates(d.block) {
				return !st.asksAgain(flow.Unwrap(c.Call.Value).(*ssa.Parameter), againValue(b, l), 0)
			}
		}
		return false
	})
	// successExits returns the exits that control reaches from the success side of decision
	// d without going through the failure side of another test, through a cancellation,
	// through the answer that call has nothing more to give, or into a panic (such as a
	// blocking select's impossible fall-through).
	successExits := func(d decision) map[loops.Edge]bool {
		skip := func(e loops.Edge) bool {
			if e.From == d.block {
				return false
			}
			failure := false
			for _, o := range ds {
				if e.From == o.block {
					if e.To == o.block.Succs[o.success] {
						return false // a verdict of unknown sense has both sides as success
					}
					failure = true
				}
			}
			return failure || runsDry(e, d.call, l) || cancelled(e, l) || panics(e.To) || invariantGate(e, l) || failsOut(e)
		}
		exits := l.ExitEdges(d.block, d.block.Succs[d.success], skip)
		if e, ok := flagExit(l, d.block.Succs[d.success], skip); ok {
			exits[e] = true
		}
		return exits
	}
	// Calls whose own tests all send their success round the loop, never out of it: the loop
	// keeps working after they succeed, whatever a verdict on their error says (for { err :=
	// session(); if err == nil { continue }; if failWait(err) { return } } runs a lifecycle).
	tested, leaves := make(map[ssa.CallInstruction]bool), make(map[ssa.CallInstruction]bool)
	for _, o := range ds {
		if !o.policy {
			tested[o.call] = true
			if len(successExits(o)) > 0 {
				leaves[o.call] = true
			}
		}
	}
	var again, spin *decision
	bounds := make(map[ssa.CallInstruction]Bound)
	counted := func(d decision) bool {
		b, ok := bounds[d.call]
		if !ok {
			b = st.loopBound(fn, l, d.call)
			bounds[d.call] = b
		}
		return b.Kind == BoundConst
	}
	for _, d := range ds {
		fail := d.block.Succs[1-d.success]
		if !l.CanRepeatAvoiding(fail, contradicts(d)) {
			continue // (through a later test that the failed error is nil: no way round)
		}
		if stdLocal(d.call) && st.rem.Reach(d.call) == remote.ReachLocal {
			continue // parsing a line, converting a number: an attempt reaches a dependency
		}
		if knowledge.ConnSetting(flow.Callee(d.call.Common())) {
			continue // conn.SetReadDeadline failing: the socket's own state, no attempt
		}
		// A session's end, failed or not, is a disconnect: a loop that leaves after one only as
		// it leaves after the other (an attempt cap) reconnects either way.
		if tested[d.call] && (!leaves[d.call] || st.readsStream(d.call) && !distinctExits(l, d, successExits(d))) {
			if counted(d) {
				continue // a loop of a fixed number of rounds (three probes of a latency) does not run for long
			}
			// The failure's own side must wait: not the loop's header, which a failure only
			// reaches to leave (for err == nil { ...; if err = extend(); err == nil {
			// timer.Reset(d) } } keeps a lease until it fails).
			// Or, when the call reads a stream, a wait on every way round: the stream's end,
			// failed or not, is a disconnect, and the wait the reconnect's.
			if again == nil && !d.policy && fail != l.Header && !st.iterates(d, l) && !periodic(fn, l, d, ds) && (waitsAfter(fn, fail, l.Contains) || st.readsStream(d.call) && waitsEveryRound(fn, l) || failureSetsWait(fn, l, d) || st.waitsOnWayBack(fn, l, d) && !st.successPaced(fn, l, d, ds)) {
				again = &d
			}
			if spin == nil && !d.policy && fail != l.Header && !st.iterates(d, l) && (st.connects(d.call) || st.pacedOnSuccess(fn, l, d) || st.failsAtOnce(fn, l, d)) &&
				!waitsAfter(fn, fail, l.Contains) && !waitsEveryRound(fn, l) && !st.waitsOnEveryWayRound(fn, l, d) && !waitsOnFlag(fn, l, d) && !afterArrival(d.call, l) && !goesRoundInner(inner, d) {
				spin = &d // a reconnect loop that dials again at once when the dial fails
			}
			continue
		}
		if !l.CanRepeatAvoiding(fail, func(e loops.Edge) bool { return calledOff(e, l) || readsOn(e) || contradicts(d)(e) }) {
			// It goes round only when the program called the attempt off (a restart), or when
			// the call handed back part of its work and is called to go on (a read).
			continue
		}
		if distinctExits(l, d, successExits(d)) && (!st.iterates(d, l) || st.failsOver(d, l)) && !onSchedule(d, ds, l) {
			return d, retrying
		}
	}
	if again != nil {
		return *again, lifecycle
	}
	if spin != nil {
		return *spin, lifecycle
	}
	return decision{}, other
}

// ignoredVerdict reports whether decision d is a verdict on a call's outcome that a callback
// the helper is handed gives (if f(cur, err) { sleep; continue }), and every callback the
// package hands that unexported helper ignores the error it is given: it decides on the state
// the call read (the pods have their addresses), so the loop polls that state and does not
// retry a failure.
func (st *state) ignoredVerdict(d decision) bool {
	ifInstr, ok := lastInstr(d.block).(*ssa.If)
	if !ok {
		return false
	}
	cond, ok := unNot(ifInstr.Cond).(*ssa.Call)
	if !ok || !callsParam(cond) {
		return false
	}
	helper := cond.Parent()
	p := flow.Unwrap(cond.Call.Value).(*ssa.Parameter)
	i := slices.Index(helper.Params, p)
	obj, _ := helper.Object().(*types.Func)
	if i < 0 || obj == nil || obj.Exported() && st.pass.Pkg.Name() != "main" {
		return false
	}
	var errAt []int // the callback's arguments that carry the judged call's error
	for j, a := range cond.Call.Args {
		if typeis.ErrorLike(a.Type()) && producer(a, func(*ssa.BasicBlock) bool { return true }) == d.call {
			errAt = append(errAt, j)
		}
	}
	if len(errAt) == 0 {
		return false
	}
	handed := 0
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			if call.Common().StaticCallee() != helper {
				continue
			}
			args := call.Common().Args
			if i >= len(args) {
				return false
			}
			f := callbackFunc(flow.Unwrap(args[i]))
			if f == nil {
				return false // a function value the model cannot read
			}
			for _, j := range errAt {
				if j >= len(f.Params) || f.Params[j].Referrers() == nil || len(*f.Params[j].Referrers()) > 0 {
					return false
				}
			}
			handed++
		}
	}
	return handed > 0
}

// failsOut reports whether exit e leads straight to a return of an error the function makes
// of its own words (a malformed answer: errors.New("value is not a map")): leaving there is a
// failure found in the answer, not the success a retry loop leaves on. A loop whose only ways
// out after a call succeeded are such returns goes round on success too: it walks something
// (the fields of an answer), it does not retry the call.
func failsOut(e loops.Edge) bool {
	b := e.To
	for range 4 {
		switch x := lastInstr(b).(type) {
		case *ssa.Return:
			return len(x.Results) > 0 && madeError(x.Results[len(x.Results)-1])
		case *ssa.Jump:
			b = b.Succs[0]
		default:
			return false
		}
	}
	return false
}

// periodic reports whether every wait that loop l makes after d's call failed lasts what a
// wait on a way round that passes no failure lasts (the same field or variable, or constant):
// the loop keeps its period (a heartbeat every beatInfo.Period, a watch that loads every
// refresh, failed or not), and the wait after a failure is that period, not a backoff.
func periodic(fn *ssa.Function, l *loops.Loop, d decision, ds []decision) bool {
	fail := d.block.Succs[1-d.success]
	var failed, succeeded []Sleep
	for _, b := range l.Blocks(fn) {
		calls := slices.Collect(flow.BlockCalls([]*ssa.BasicBlock{b}))
		ss := sleeps(calls, l)
		switch {
		case len(ss) == 0:
		case fail.Dominates(b):
			failed = append(failed, ss...)
		case !slices.ContainsFunc(ds, func(o decision) bool { return o.block.Succs[1-o.success].Dominates(b) }):
			succeeded = append(succeeded, ss...) // a way round that passes no failure: the period
		}
	}
	if len(failed) == 0 || len(succeeded) == 0 {
		return false
	}
	for _, f := range failed {
		if !slices.ContainsFunc(succeeded, func(s Sleep) bool { return sameDuration(f.Duration, s.Duration) }) {
			return false
		}
	}
	return true
}

// successPaced reports whether, from the success side of decision d, loop l reaches a block
// that waits without passing the failure side of one of the loop's decisions ds (or a test
// that finds the context ended; not a receive of a signal, which may be the work's own event):
// a renewal or
// a poll that waits for its next period whatever the round did. Its wait is the period; a
// loop whose waits only failures reach (a stream read until it broke, then goto retry) waits
// between attempts.
func (st *state) successPaced(fn *ssa.Function, l *loops.Loop, d decision, ds []decision) bool {
	waits := st.blockWaits(fn, l, d)
	failure := func(from, to *ssa.BasicBlock) bool {
		for _, o := range ds {
			if from == o.block && to == o.block.Succs[1-o.success] {
				return true
			}
		}
		return contextEnded(loops.Edge{From: from, To: to}) // (ctx.Err() != nil: the context ended, as a failure would)
	}
	for b := range flow.Forward([]*ssa.BasicBlock{d.block.Succs[d.success]}, func(from, to *ssa.BasicBlock) bool {
		return from != l.Header && l.Contains(to) && !failure(from, to)
	}) {
		if b != l.Header && waits(b) {
			return true
		}
	}
	return false
}

// flagExit returns the edge by which loop l leaves at its header when control comes round
// from block from: the header tests a flag (for !done { ...; if err == nil { done = true }
// ... }) that every way round from there, avoiding the edges for which skip holds, sets to
// the value that leaves.
func flagExit(l *loops.Loop, from *ssa.BasicBlock, skip func(loops.Edge) bool) (loops.Edge, bool) {
	test, ok := lastInstr(l.Header).(*ssa.If)
	if !ok || !l.Contains(from) {
		return loops.Edge{}, false
	}
	flag, negated := test.Cond, false
	for {
		u, ok := flag.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			break
		}
		flag, negated = u.X, !negated
	}
	phi, ok := flag.(*ssa.Phi)
	if !ok || phi.Block() != l.Header {
		return loops.Edge{}, false
	}
	reach := map[*ssa.BasicBlock]bool{from: true}
	for b := range flow.Forward([]*ssa.BasicBlock{from}, func(x, to *ssa.BasicBlock) bool {
		return x != l.Header && l.Contains(to) && !skip(loops.Edge{From: x, To: to})
	}) {
		reach[b] = true
	}
	// value is the constant v holds on the ways from there: a phi's edges from the blocks
	// reached (the header's, from its latches), when they agree.
	var value func(v ssa.Value, depth int) (bool, bool)
	value = func(v ssa.Value, depth int) (bool, bool) {
		if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
			return constant.BoolVal(c.Value), true
		}
		p, ok := v.(*ssa.Phi)
		if !ok || depth > 8 {
			return false, false
		}
		got, known := false, false
		for i, e := range p.Edges {
			pred := p.Block().Preds[i]
			if !reach[pred] || p.Block() == l.Header && !l.Contains(pred) {
				continue
			}
			b, ok := value(e, depth+1)
			if !ok || known && b != got {
				return false, false
			}
			got, known = b, true
		}
		return got, known
	}
	holds, ok := value(phi, 0)
	if !ok {
		return loops.Edge{}, false
	}
	out := test.Block().Succs[0]
	if holds == negated {
		out = test.Block().Succs[1]
	}
	if l.Contains(out) {
		return loops.Edge{}, false
	}
	return loops.Edge{From: l.Header, To: out}, true
}

// walksOutcome reports whether d's test is made again and again in a loop nested in l that
// does not make d's call (rows, err := query(); for rows.Next() { ... }): it walks what one
// attempt returned, item by item; its "no" is the end of the items, no verdict on the attempt.
func walksOutcome(inner []*loops.Loop, d decision) bool {
	for _, in := range inner {
		if in.Contains(d.block) && !in.Contains(d.call.Block()) {
			return true
		}
	}
	return false
}

// goesRoundInner reports whether the failure side of d goes round a loop nested in l (inner)
// that holds d's test (a reconnect loop inside a reading loop): that loop retries the call,
// and waits or spins on its own; l does not go round at once on that failure.
func goesRoundInner(inner []*loops.Loop, d decision) bool {
	fail := d.block.Succs[1-d.success]
	for _, in := range inner {
		if in.Contains(d.block) && in.CanRepeat(fail) {
			return true
		}
	}
	return false
}

// afterArrival reports whether call runs, each round, only after something arrives: a
// listener's next connection (vmConn, err := ln.Accept(); ...; local, err := net.Dial(...)
// to serve it) or an event on a channel (afterEvent). A round whose dial fails waits for the
// next arrival; it does not spin.
func afterArrival(call ssa.CallInstruction, l *loops.Loop) bool {
	if afterEvent(call, l) {
		return true
	}
	b := call.Block()
	for _, o := range l.Blocks(call.Parent()) {
		if !o.Dominates(b) {
			continue
		}
		for _, instr := range o.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && c != call && accepts(c) && (o != b || flow.Before(c, call)) {
				return true
			}
		}
	}
	return false
}

// connects reports whether call opens a connection or a stream to a remote peer: a dial, a
// request whose response is read as a stream, or a function of the package that dials and
// reads the connection (a session). A long-running loop that goes round when it fails
// reconnects.
func (st *state) connects(call ssa.CallInstruction) bool {
	if rc := st.rem.Of(call); rc != nil && rc.Kind == remote.Dial && !rc.Loopback {
		return true
	}
	return st.readsStream(call) && st.rem.Reach(call) == remote.ReachRemote
}

// contradicts returns a test of whether an edge is the nil side of a test of an error that is
// known not to be nil on d's failure side (d tests it, or d's block lies on the non-nil side
// of a test of it): a way from d's failure that the failure cannot take (rs, err := next(); if
// err != nil { if isEOF(err) { return } }; ...; if !cont || err != nil { return }: the way
// round needs err == nil). The test may be of a phi that merges d's error with others (if
// first { err = mkBlk() } else { err = bput() }; if err != nil { return err }): on the ways
// from d's failure it is d's error.
func contradicts(d decision) func(loops.Edge) bool {
	errv := failedError(d)
	fail := d.block.Succs[1-d.success]
	merged := errv
	if merged == nil {
		// d's own test of an error whose non-nil side other ways enter too: only phis that
		// take d's error on the edge from d.block say what it is on the ways from there.
		if ifInstr, ok := lastInstr(d.block).(*ssa.If); ok {
			if v, nilSide := testedError(ifInstr); v != nil && d.block.Succs[1-nilSide] == fail {
				merged = v
			}
		}
	}
	var reach map[*ssa.BasicBlock]bool
	return func(e loops.Edge) bool {
		if e.From != d.block && resultSet(e, d) {
			// data, err := fetch(); if err != nil { ... }; if data != nil { break }: when the
			// call failed its other results are zero, by Go's convention.
			if reach == nil {
				reach = sameRound(fail, d.block)
			}
			if reach[e.From] {
				return true
			}
		}
		if merged == nil || e.From == d.block {
			return false
		}
		ifInstr, ok := lastInstr(e.From).(*ssa.If)
		if !ok {
			return false
		}
		tested, nilSide := testedError(ifInstr)
		if tested == nil || e.To != e.From.Succs[nilSide] {
			return false
		}
		if tested == errv {
			return true
		}
		if _, ok := tested.(*ssa.Phi); !ok {
			return false
		}
		if reach == nil {
			reach = sameRound(fail, d.block)
		}
		from := func(phi *ssa.Phi, i int) bool {
			pred := phi.Block().Preds[i]
			return reach[pred] || phi.Block() == fail && pred == d.block
		}
		return reach[e.From] && carries(tested, merged, from, make(map[*ssa.Phi]bool))
	}
}

// resultSet reports whether edge e takes the non-nil side of a test against nil of another
// result of d's call, a function of the package that returns that result nil wherever it
// returns an error (return nil, err): on d's failure side the test cannot take that edge.
// (Not a call whose failures may carry a response: go-github's, or a send that returns the
// 5xx it got together with its error.)
func resultSet(e loops.Edge, d decision) bool {
	ifInstr, ok := lastInstr(e.From).(*ssa.If)
	call, isCall := d.call.(*ssa.Call)
	if !ok || !isCall {
		return false
	}
	x, nilSide := flow.NilBranch(ifInstr)
	ex, ok := x.(*ssa.Extract)
	if !ok || ex.Tuple != call || flow.IsError(ex) || e.To != e.From.Succs[1-nilSide] {
		return false
	}
	return zeroOnError(call.Call.StaticCallee(), ex.Index)
}

// zeroOnError reports whether fn, a function of the package, returns its result i as nil on
// every return whose error result may not be nil.
func zeroOnError(fn *ssa.Function, i int) bool {
	if fn == nil || fn.Pkg == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() <= i {
		return false
	}
	res := fn.Signature.Results()
	errIdx := -1
	for j := range res.Len() {
		if j != i && typeis.Error(res.At(j).Type()) {
			errIdx = j
		}
	}
	if errIdx < 0 {
		return false
	}
	found := false
	for ret := range flow.Returns(fn) {
		if len(ret.Results) != res.Len() {
			return false
		}
		if !flow.IsNil(flow.Unwrap(ret.Results[i])) && !flow.IsNil(flow.Unwrap(ret.Results[errIdx])) {
			return false
		}
		found = true
	}
	return found
}

// sameRound returns the blocks reached from start without coming back to a block above at,
// which starts a new round: the ways on which the error tested at at keeps its value.
func sameRound(start, at *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] || b.Dominates(at) {
			continue
		}
		seen[b] = true
		work = append(work, b.Succs...)
	}
	return seen
}

// carries reports whether v is errv on the ways that from admits: errv itself, or a phi (if
// err = mkBlk(); ... else err = bput(); ...; if err != nil) each of whose admitted edges
// carries it, and at least one does.
func carries(v, errv ssa.Value, from func(*ssa.Phi, int) bool, seen map[*ssa.Phi]bool) bool {
	if v == errv {
		return true
	}
	phi, ok := v.(*ssa.Phi)
	if !ok || seen[phi] {
		return false
	}
	seen[phi] = true
	any := false
	for i, x := range phi.Edges {
		if i >= len(phi.Block().Preds) || !from(phi, i) {
			continue
		}
		if !carries(x, errv, from, seen) {
			return false
		}
		any = true
	}
	return any
}

// failedError returns the error that is not nil on d's failure side: the one d compares with
// nil, or one that a test above d.block found not nil (every way from the failure starts at
// d.block).
func failedError(d decision) ssa.Value {
	fail := d.block.Succs[1-d.success]
	for b := d.block; b != nil; b = b.Idom() {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok {
			continue
		}
		errv, nilSide := testedError(ifInstr)
		if errv == nil {
			continue
		}
		// (The non-nil side must be entered from this test alone: a block that other ways reach
		// too, if retryWhy != nil || err != nil { ... }, may see a nil error.)
		side := b.Succs[1-nilSide]
		if len(side.Preds) == 1 && (b == d.block && side == fail || b != d.block && side.Dominates(d.block)) {
			return errv
		}
	}
	return nil
}

// testedError returns the error that the branch compares with nil (err != nil, !(err == nil))
// and the successor taken when it is nil; nil and 0 for other branches.
func testedError(ifInstr *ssa.If) (errv ssa.Value, nilSide int) {
	x, nilSide := flow.NilBranch(ifInstr)
	if x == nil || !flow.IsError(x) {
		return nil, 0
	}
	return x, nilSide
}

// invariantGate reports whether the exit e leaves l on a test of a value fixed before the
// loop, whose other side goes straight round (once := refresh <= 0; for { ...; if once { return } }):
// when the value says stay, the loop never leaves after a success; it polls for the life of
// the process, and the exit is a mode of it, not the end of a retry.
func invariantGate(e loops.Edge, l *loops.Loop) bool {
	br, ok := e.From.Instrs[len(e.From.Instrs)-1].(*ssa.If)
	if !ok || len(e.From.Succs) != 2 || l.Contains(e.To) {
		return false // (the searches ask about every edge, not only the loop's exits)
	}
	other := e.From.Succs[0]
	if other == e.To {
		other = e.From.Succs[1]
	}
	if !l.Contains(other) || other != l.Header && l.CanExit(other) {
		return false // the other side must go straight round, not on to another way out
	}
	v := flow.Unwrap(br.Cond)
	for {
		not, ok := v.(*ssa.UnOp)
		if !ok || not.Op != token.NOT {
			break
		}
		v = flow.Unwrap(not.X)
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		return true
	case *ssa.Const:
		return false
	case ssa.Instruction:
		return v.Block() != nil && !l.Contains(v.Block())
	}
	return false
}

// distinctExits reports whether some exit of loop l reached from the success side of d
// (onSuccess) is not reached from its failure side.
func distinctExits(l *loops.Loop, d decision, onSuccess map[loops.Edge]bool) bool {
	onFailure := l.ExitEdges(d.block, d.block.Succs[1-d.success], contradicts(d))
	for e := range onSuccess {
		if !onFailure[e] {
			return true
		}
	}
	return false
}

// readsStream reports whether call reads a response as a stream (remote.Call.ReadsStream), or
// runs a function of the package that dials a connection and reads it in a loop (a session:
// remote.Call.Session), whose return is the connection's end.
func (st *state) readsStream(call ssa.CallInstruction) bool {
	if rc := st.rem.Of(call); rc != nil && rc.ReadsStream() {
		return true
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg != call.Parent().Pkg {
		return false
	}
	for c := range flow.Calls(callee) {
		if rc := st.rem.Of(c); rc != nil && rc.Session {
			return true
		}
	}
	return false
}

// waitsEveryRound reports whether loop l of fn waits in a block that every way round passes.
func waitsEveryRound(fn *ssa.Function, l *loops.Loop) bool {
	return waitsIn(fn, func(b *ssa.BasicBlock) bool { return l.Contains(b) && l.EveryRound(b) }, 0)
}

// waitsOnEveryWayRound reports whether every way from d's failure back to loop l's header
// passes a block that sleeps or waits on a timer, though no one block does: the two sides of a
// test that each wait their own time (a refresh loop that sleeps until the token's renewal
// when refreshing is on, and a second otherwise), in its own code or a function it calls
// other than the attempt.
func (st *state) waitsOnEveryWayRound(fn *ssa.Function, l *loops.Loop, d decision) bool {
	waits := st.blockWaits(fn, l, d)
	fail := d.block.Succs[1-d.success]
	return waits(fail) || !l.CanRepeatAvoiding(fail, func(e loops.Edge) bool { return waits(e.To) })
}

// waitsOnWayBack reports whether every way from d's failure back to loop l's header passes a
// block before the header that waits (the header's own wait, a ticker's receive that paces
// every round, does not count): goto retry, whose label waits for every failure that jumps
// there, though no failure's own branch holds the wait.
func (st *state) waitsOnWayBack(fn *ssa.Function, l *loops.Loop, d decision) bool {
	fail := d.block.Succs[1-d.success]
	if fail == l.Header || !l.CanRepeat(fail) {
		return false
	}
	waits := st.blockWaits(fn, l, d)
	return waits(fail) || !l.CanRepeatAvoiding(fail, func(e loops.Edge) bool { return e.To != l.Header && waits(e.To) })
}

// blockWaits returns whether a block of loop l sleeps or waits on a timer, in its own code or
// in a function it calls other than d's attempt.
func (st *state) blockWaits(fn *ssa.Function, l *loops.Loop, d decision) func(*ssa.BasicBlock) bool {
	own, ok := st.loopWaits[l.Header]
	if !ok {
		own = make(map[*ssa.BasicBlock]bool)
		for _, b := range l.Blocks(fn) {
			_, own[b] = ownWaits(fn, func(x *ssa.BasicBlock) bool { return x == b }, true)
		}
		st.loopWaits[l.Header] = own
	}
	// The attempt's own waits are part of the attempt; a helper of another package waits by
	// its waitsFact.
	return func(b *ssa.BasicBlock) bool {
		if own[b] {
			return true
		}
		for c := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
			if _, started := c.(*ssa.Go); started || c == d.call {
				continue
			}
			if callee := c.Common().StaticCallee(); callee != nil && callee.Pkg == st.ssaPkg {
				if calleeWaitsIn(fn, c, 0) {
					return true
				}
			} else if st.calleeWaits(c) != nil {
				return true
			}
		}
		return false
	}
}

// contextEnded reports whether edge e is the non-nil side of ctx.Err() != nil or
// context.Cause(ctx) != nil: the context ended.
func contextEnded(e loops.Edge) bool {
	cmp, x, k := constEquality(e.From)
	if cmp == nil || !k.IsNil() {
		return false
	}
	call, ok := flow.Unwrap(x).(*ssa.Call)
	if !ok || flow.ID(flow.Callee(call.Common())).Pkg != "context" {
		return false
	}
	nonNil := 0 // the successor taken when the comparison holds: != nil holds on the non-nil side
	if cmp.Op == token.EQL {
		nonNil = 1
	}
	return e.To == e.From.Succs[nonNil]
}

// calledOff reports whether edge e is taken when the attempt's own context, made in the loop
// by context.WithCancel (no deadline: only the program cancels it, as a switch to a new
// primary does), was cancelled: the side of a test of its Err() against nil or
// context.Canceled where it is. A loop that goes round only that way restarts the work on a
// new target; it does not retry a failure of the dependency.
func calledOff(e loops.Edge, l *loops.Loop) bool {
	cmp := equality(e.From)
	if cmp == nil {
		return false
	}
	errCall, other := cmp.X, cmp.Y
	if _, ok := errCall.(*ssa.Call); !ok {
		errCall, other = other, errCall
	}
	call, ok := errCall.(*ssa.Call)
	if !ok || !contextErr(call) {
		return false
	}
	made := false
	flow.Backward(call.Call.Value, 16, func(x ssa.Value) bool {
		if c, ok := x.(*ssa.Call); ok {
			id := flow.ID(flow.Callee(c.Common()))
			made = id.Pkg == "context" && id.Name == "WithCancel" && l.Contains(c.Block())
			return false
		}
		return true
	})
	if !made {
		return false
	}
	// The cancelled side: Err() != nil, Err() == context.Canceled hold there; Err() == nil
	// does not.
	cancelledSide := 0
	if flow.IsNil(other) == (cmp.Op == token.EQL) {
		cancelledSide = 1
	}
	return e.To == e.From.Succs[cancelledSide]
}

// readsOn reports whether edge e is taken when an error reports progress, not failure (err ==
// bufio.ErrBufferFull, errors.Is(err, bufio.ErrBufferFull): the call handed back what it read
// and goes on when called again).
func readsOn(e loops.Edge) bool {
	_, holds, ok := sentinelBranch(e.From, progress)
	return ok && e.To == e.From.Succs[holds]
}

// sentinelBranch says, of block b when it ends in a test of an error against a package's
// error variable for which is holds (err == io.EOF, err != bufio.ErrBufferFull, errors.Is(err,
// io.EOF), negated or not), which error it tests and the successor taken when the error is
// that variable.
func sentinelBranch(b *ssa.BasicBlock, is func(*ssa.Global) bool) (errv ssa.Value, holds int, ok bool) {
	if len(b.Instrs) == 0 {
		return nil, 0, false
	}
	ifInstr, isIf := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !isIf {
		return nil, 0, false
	}
	holds = countNots(ifInstr.Cond) % 2
	var pairs [][2]ssa.Value // the error, and what it is compared with
	switch c := unNot(ifInstr.Cond).(type) {
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return nil, 0, false
		}
		if c.Op == token.NEQ {
			holds = 1 - holds
		}
		pairs = [][2]ssa.Value{{c.X, c.Y}, {c.Y, c.X}}
	case *ssa.Call:
		if flow.ID(flow.Callee(c.Common())) != (flow.FuncID{Pkg: "errors", Name: "Is"}) || len(c.Call.Args) != 2 {
			return nil, 0, false
		}
		pairs = [][2]ssa.Value{{c.Call.Args[0], c.Call.Args[1]}}
	}
	for _, pair := range pairs {
		if load, isLoad := flow.Unwrap(pair[1]).(*ssa.UnOp); isLoad && load.Op == token.MUL {
			if g, global := load.X.(*ssa.Global); global && is(g) {
				return pair[0], holds, true
			}
		}
	}
	return nil, 0, false
}

// progress reports whether g is an error variable that reports progress (knowledge.Progress).
func progress(g *ssa.Global) bool {
	v, ok := g.Object().(*types.Var)
	return ok && knowledge.Progress(v)
}

// cancelled reports whether edge e is taken when the work is called off: it leaves a select
// on the case of a context's Done or of a stop channel (a chan struct{} the loop's work does
// not produce: see signal), or on to the select's other cases when each of those is called off too
// or cannot happen, or it is a test of a context's Err (or Cause) against nil on its non-nil
// side. A loop that leaves on success only that way runs until it is stopped: periodic work,
// not a retry.
func cancelled(e loops.Edge, l *loops.Loop) bool {
	cmp, x, k := constEquality(e.From)
	if cmp == nil {
		return false
	}
	if k.IsNil() {
		return contextEnded(e)
	}
	idx, ok := x.(*ssa.Extract)
	if !ok || idx.Index != 0 {
		return false
	}
	sel, ok := idx.Tuple.(*ssa.Select)
	if !ok || cmp.Op != token.EQL {
		return false
	}
	if e.To == e.From.Succs[1] {
		// On to the select's next cases, in the block that tests them (the order of the cases
		// does not matter).
		return testsCase(e.To, idx) && cancelled(loops.Edge{From: e.To, To: e.To.Succs[0]}, l) &&
			(panics(e.To.Succs[1]) || cancelled(loops.Edge{From: e.To, To: e.To.Succs[1]}, l))
	}
	n, ok := flow.IntConst(k)
	if !ok || n < 0 || n >= int64(len(sel.States)) {
		return false
	}
	return signal(sel.States[n], l)
}

// testsCase reports whether block b ends in a test of which case of a select was chosen, idx
// being the chosen case's index.
func testsCase(b *ssa.BasicBlock, idx *ssa.Extract) bool {
	cmp := equality(b)
	return cmp != nil && cmp.Op == token.EQL && cmp.X == idx
}

// panics reports whether block b ends in a panic.
func panics(b *ssa.BasicBlock) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	return ok
}

// signal reports whether a select case receives from a context's Done or from a stop
// channel: a channel of struct{}, which only signals, that the loop's work does not produce
// (a field, a variable, a parameter: something another part of the program closes to call the
// work off). A signal that an attempt produces (ready, err := subscribe(); <-ready) says the
// work arrived: leaving on it is leaving on success.
func signal(st *ssa.SelectState, l *loops.Loop) bool {
	if st.Dir != types.RecvOnly {
		return false
	}
	if c, ok := flow.Unwrap(st.Chan).(*ssa.Call); ok && flow.ID(flow.Callee(c.Common())).Pkg == "context" {
		return true
	}
	if ch, ok := st.Chan.Type().Underlying().(*types.Chan); ok {
		if s, ok := ch.Elem().Underlying().(*types.Struct); ok && s.NumFields() == 0 {
			return !producedIn(st.Chan, l)
		}
	}
	return false
}

// producedIn reports whether v is computed from the result of a call made in the loop.
func producedIn(v ssa.Value, l *loops.Loop) bool {
	found := false
	flow.Backward(v, 16, func(x ssa.Value) bool {
		if c, ok := x.(*ssa.Call); ok && l.Contains(c.Block()) {
			found = true
		}
		return !found
	})
	return found
}

// equality returns the == or != comparison that block b branches on, or nil.
func equality(b *ssa.BasicBlock) *ssa.BinOp {
	if len(b.Instrs) == 0 {
		return nil
	}
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cmp, ok := ifInstr.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil
	}
	return cmp
}

// constEquality returns the comparison (== or !=) with a constant that ends block b, its other
// operand and the constant; nil when b ends otherwise.
func constEquality(b *ssa.BasicBlock) (*ssa.BinOp, ssa.Value, *ssa.Const) {
	cmp := equality(b)
	if cmp == nil {
		return nil, nil, nil
	}
	x, y := cmp.X, cmp.Y
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
	}
	k, ok := y.(*ssa.Const)
	if !ok {
		return nil, nil, nil
	}
	return cmp, x, k
}

// runsDry reports whether edge e is taken when call yields nothing: it leaves a comparison of
// one of call's results other than an error with nil, on the side where it is nil
// (results, err := p.getResults(); ... if results == nil { break }).
func runsDry(e loops.Edge, call ssa.CallInstruction, l *loops.Loop) bool {
	if moreFlagFalse(e, call) {
		return true
	}
	cmp := equality(e.From)
	if cmp == nil {
		return false
	}
	x, y := cmp.X, cmp.Y
	if flow.IsNil(x) {
		x, y = y, x
	}
	if !flow.IsNil(y) || typeis.ErrorLike(x.Type()) || producer(x, l.Contains) != call {
		return false
	}
	nilSide := 0
	if cmp.Op == token.NEQ {
		nilSide = 1
	}
	return e.To == e.From.Succs[nilSide]
}

// stdLocal reports whether call is a static call of a function of the standard library that
// takes only plain values (strings, numbers, bytes: strconv.Atoi, url.PathUnescape): it
// computes, and a decision on its outcome judges a step of the program's own work, not an
// attempt. (io.ReadFull of an answer's body takes a reader, which may be the dependency's; the
// program's own functions are not judged so: a stub may stand for a client.)
func stdLocal(call ssa.CallInstruction) bool {
	fn := call.Common().StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Signature.Recv() != nil || !ssapkg.IsStdPath(fn.Pkg.Pkg.Path()) {
		return false
	}
	for v := range fn.Signature.Params().Variables() {
		t := v.Type().Underlying()
		if sl, ok := t.(*types.Slice); ok {
			t = sl.Elem().Underlying()
		}
		if _, ok := t.(*types.Basic); !ok {
			return false
		}
	}
	return true
}

// moreFlagFalse reports whether edge e leaves on the false side of a bool that call returns
// beside an item and an error ((hasMore, work, err) := provider.Provide(); if !hasMore {
// break }): the source says it has nothing more. Not a flag whose sense the callee's returns
// show (again, err := c.send(): true means it failed), nor one beside an HTTP response (the
// attempt's own verdict).
func moreFlagFalse(e loops.Edge, call ssa.CallInstruction) bool {
	ifInstr, ok := lastInstr(e.From).(*ssa.If)
	if !ok || call.Value() == nil || returnsResponse(call) {
		return false
	}
	falseSide := 1 - countNots(ifInstr.Cond)%2 // the side taken when the flag is false
	ex, ok := unNot(ifInstr.Cond).(*ssa.Extract)
	if !ok || ex.Tuple != call.Value() || !typeis.Bool(ex.Type()) || e.To != e.From.Succs[falseSide] {
		return false
	}
	if _, known := flagSense(call.Common().StaticCallee(), ex.Index); known {
		return false
	}
	items, errs := 0, 0
	res := call.Common().Signature().Results()
	for i := range res.Len() {
		switch t := res.At(i).Type(); {
		case typeis.ErrorLike(t):
			errs++
		case !typeis.Bool(t):
			items++
		}
	}
	return items > 0 && errs > 0
}
