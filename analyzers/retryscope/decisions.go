package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// A decision is a branch on the outcome of a call: one successor is taken on success.
type decision struct {
	block   *ssa.BasicBlock // ends with the If
	call    ssa.CallInstruction
	success int  // index of the successor taken on success
	policy  bool // a retry policy's verdict, which may hold its own limit on attempts
}

// decisions returns the branches in blocks (those for which in holds) that test the outcome of
// a call made in those blocks: its error against nil, or an *http.Response's StatusCode
// against a constant, through a predicate, or in a table (retryable[resp.StatusCode]).
func decisions(fn *ssa.Function, in func(*ssa.BasicBlock) bool) []decision {
	var ds []decision
	for _, b := range fn.Blocks {
		if !in(b) || len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if judged, done, ok := waitVerdict(ifInstr, in); ok {
			ds = append(ds, decision{block: b, call: judged, success: done, policy: true})
			continue
		}
		call, success, either := outcome(ifInstr.Cond, in)
		if call == nil {
			call, success = waitFlag(fn, b, in)
		}
		if call != nil && flow.ID(flow.Callee(call.Common())).Pkg == "context" {
			continue // ctx.Err() != nil asks whether to stop, it is not the work's outcome
		}
		if call != nil && errorsPredicate(unNot(ifInstr.Cond)) && (afterFailure(b, call, fn, in) || !waitsAfter(fn, b.Succs[1-success], in) && !(classifies(unNot(ifInstr.Cond)) && waitsBefore(fn, call, in))) {
			// errors.Is on an error already known to be one: its "no" is another failure. And
			// going round on one kind of failure is a retry when it waits first (after the
			// failure; or at the top of every round before the attempt, when errors.As sorts
			// the failure by its type, as a status check does: going round on one sentinel
			// with the wait at the top polls for a state, io.ErrNoProgress); without a wait it
			// is a protocol's next step (rebootstrap, rejoin, ask another broker).
			continue
		}
		if call != nil {
			_, policy := retryPolicy(unNot(ifInstr.Cond), in)
			ds = append(ds, decision{block: b, call: call, success: success, policy: policy})
			if either {
				// A verdict whose sense the structure must tell: the side that goes round is
				// the failure side, whichever it is (classifyLoop tries both).
				ds = append(ds, decision{block: b, call: call, success: 1 - success, policy: policy})
			}
		}
	}
	return ds
}

// waitFlag reads a branch on a flag that a function of the program returns beside its error,
// whose sense its returns do not show (retry, err := c.do(req); if retry { sleep; continue };
// return err): when exactly one side waits before it goes on, that side is the failure's. It
// returns the call and the successor taken on success, or nil.
func waitFlag(fn *ssa.Function, b *ssa.BasicBlock, in func(*ssa.BasicBlock) bool) (ssa.CallInstruction, int) {
	ifInstr := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	x, ok := unNot(ifInstr.Cond).(*ssa.Extract)
	if !ok || !typeis.Bool(x.Type()) {
		return nil, 0
	}
	call, ok := x.Tuple.(*ssa.Call)
	if !ok || !in(call.Block()) || call.Call.StaticCallee() == nil && !callsParam(call) || returnsResponse(call) || !slices.ContainsFunc(tupleTypes(call), typeis.ErrorLike) {
		return nil, 0
	}
	if afterNilError(b, call) {
		return nil, 0 // tested once the call succeeded: the flag tells what it found (a lock held elsewhere), not a failure
	}
	waits := -1
	for i, succ := range b.Succs {
		if succ.Preds[0] == b && len(succ.Preds) == 1 && waitsAfter(fn, succ, in) {
			if waits >= 0 {
				return nil, 0
			}
			waits = i
		}
	}
	if waits < 0 || leavesOnError(fn, b.Succs[waits], call, in) {
		return nil, 0
	}
	return call, 1 - waits
}

// paramFlag returns the parameter whose call's flag decision d tests (again, err := attempt();
// if !again { return err }), or nil.
func paramFlag(d decision) *ssa.Parameter {
	c, ok := d.call.(*ssa.Call)
	if !ok || !callsParam(c) {
		return nil
	}
	x, ok := unNot(d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If).Cond).(*ssa.Extract)
	if !ok || x.Tuple != c || !typeis.Bool(x.Type()) {
		return nil
	}
	return flow.Unwrap(c.Call.Value).(*ssa.Parameter)
}

// leavesOnError reports whether, below from, a test of call's error leaves on its failure side
// without waiting (ok, err := cond(); if ok || err != nil { return err }; sleep): the loop goes
// round only once the call succeeded, on a state it has not reached yet: a poll.
func leavesOnError(fn *ssa.Function, from *ssa.BasicBlock, call *ssa.Call, in func(*ssa.BasicBlock) bool) bool {
	for _, o := range fn.Blocks {
		if !in(o) || !from.Dominates(o) || len(o.Instrs) == 0 {
			continue
		}
		ifInstr, ok := o.Instrs[len(o.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		errv, nilSide := testedError(ifInstr)
		if ex, ok := errv.(*ssa.Extract); ok && ex.Tuple == call && !waitsAfter(fn, o.Succs[1-nilSide], in) {
			return true
		}
	}
	return false
}

// callsParam reports whether call calls one of its function's func-typed parameters: a helper
// that runs its caller's attempt (again, err := attempt(); if !again { return err }).
func callsParam(call *ssa.Call) bool {
	p, ok := flow.Unwrap(call.Call.Value).(*ssa.Parameter)
	return ok && p.Parent() == call.Parent()
}

// afterNilError reports whether block b runs only where call's error result was found nil (on
// the nil side of a test of it).
func afterNilError(b *ssa.BasicBlock, call *ssa.Call) bool {
	for ifInstr, side := range flow.TestsAbove(b) {
		errv, nilSide := testedError(ifInstr)
		if ex, ok := errv.(*ssa.Extract); ok && ex.Tuple == call && side == nilSide {
			return true
		}
	}
	return false
}

// outcome analyses a branch condition. When it tests the result of a call made in the blocks
// for which in holds, it returns that call and which successor (0: true, 1: false) is taken
// when the call succeeded; either when a verdict's sense is not known (the structure decides).
func outcome(cond ssa.Value, in func(*ssa.BasicBlock) bool) (call ssa.CallInstruction, success int, either bool) {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			call, success, either := outcome(c.X, in)
			return call, 1 - success, either
		}
		// if result.Success: a field of the struct the call returned, set as its verdict.
		if call, success := fieldVerdict(c, in); call != nil {
			return call, success, false
		}
	case *ssa.Lookup:
		// retryable[resp.StatusCode]: a table of the statuses, a verdict on the response whose
		// sense the structure tells (as a predicate's).
		if call := producer(statusLookup(c), in); call != nil {
			return call, 1, true
		}
	case *ssa.Extract, *ssa.Call, *ssa.Phi:
		// _, again := retryable[resp.StatusCode]
		if call := producer(statusLookup(c), in); call != nil {
			return call, 1, true
		}
		// A verdict on another call's outcome: shouldRetry(err, resp), c.CheckRetry(ctx,
		// resp, err), retryable(resp), again := err != nil && transient(err). When a retry
		// policy says no, the loop is done, whatever the outcome was: that side plays the
		// part of success; the call it judges is the decisive one.
		if judged, ok := retryPolicy(cond, in); ok {
			return judged, 1, true
		}
		// errors.Is(err, ErrNoResponders), errors.As(err, &netErr): the call failed in that
		// way; otherwise it succeeded or failed in another (a loop that goes round on the
		// first and leaves on the second retries that failure).
		if errorsPredicate(c) && len(c.(*ssa.Call).Call.Args) == 2 {
			if call := producer(c.(*ssa.Call).Call.Args[0], in); call != nil {
				return call, 1, false
			}
		}
		// ok := h.connect(), again := t.attempt(): the package's function whose only result
		// says whether its work succeeded, or failed in a way worth trying again (boolSense).
		if call, ok := c.(*ssa.Call); ok && in(call.Block()) && !call.Call.IsInvoke() {
			if trueFails, ok := boolSense(call.Call.StaticCallee()); ok && call.Call.StaticCallee().Pkg == call.Parent().Pkg {
				if trueFails {
					return call, 1, false
				}
				return call, 0, false
			}
		}
		// if !herr.IsNil(): a method of the outcome a call returns (a struct holding its
		// error) that tests that error against nil.
		if call, ok := c.(*ssa.Call); ok {
			if trueFails, known, ok := errorFieldTest(call.Call.StaticCallee()); ok && len(call.Call.Args) == 1 {
				if made := producer(heldIn(call.Call.Args[0]), in); made != nil {
					if trueFails {
						return made, 1, !known
					}
					return made, 0, !known
				}
			}
		}
		// retry, err := c.write(p): a flag the callee returns beside its error, whose sense
		// its returns show.
		if x, ok := c.(*ssa.Extract); ok {
			if call, ok := x.Tuple.(*ssa.Call); ok && in(call.Block()) {
				if trueFails, ok := flagSenseOf(call, x.Index); ok {
					if trueFails {
						return call, 1, false
					}
					return call, 0, false
				}
			}
		}
	case *ssa.BinOp:
		x, y := c.X, c.Y
		if flow.IsNil(x) {
			x, y = y, x
		}
		if x, ok := sentinelTest(c); ok {
			// err == io.ErrUnexpectedEOF: as errors.Is, the call failed in that way or not.
			if call := producer(x, in); call != nil {
				if c.Op == token.EQL {
					return call, 1, false
				}
				return call, 0, false
			}
		}
		if flow.IsNil(y) && flow.IsError(x) && (c.Op == token.EQL || c.Op == token.NEQ) {
			call := producer(x, in)
			if c.Op == token.EQL {
				return call, 0, false
			}
			return call, 1, false
		}
		if resp, success, ok := statusSides(c); ok {
			return producer(resp, in), success, false
		}
	}
	return nil, 0, false
}

// statusLookup returns the response whose status v looks up in a map (retryable[resp.StatusCode],
// or the ok of a comma-ok lookup), or nil.
func statusLookup(v ssa.Value) ssa.Value {
	viaOk := false
	if x, ok := v.(*ssa.Extract); ok && x.Index == 1 {
		v, viaOk = x.Tuple, true
	}
	l, ok := v.(*ssa.Lookup)
	if !ok || l.CommaOk != viaOk {
		return nil
	}
	if _, ok := l.X.Type().Underlying().(*types.Map); !ok {
		return nil
	}
	return statusOf(l.Index)
}

// statusSides reads cmp as a test of a response's status against a constant (resp.StatusCode
// OP constant): it returns the response and the successor taken on success, the side where 200
// falls. A test for a redirect is a step to follow, not a verdict.
func statusSides(cmp *ssa.BinOp) (resp ssa.Value, success int, ok bool) {
	resp, op, code, ok := statusCompare(cmp)
	if !ok || (op == token.EQL || op == token.NEQ) && code >= 300 && code < 400 {
		return nil, 0, false
	}
	if constant.Compare(constant.MakeInt64(200), op, constant.MakeInt64(code)) {
		return resp, 0, true
	}
	return resp, 1, true
}

// statusCompare reads cmp as resp.StatusCode OP code, the constant on the right.
func statusCompare(cmp *ssa.BinOp) (resp ssa.Value, op token.Token, code int64, ok bool) {
	x, y, op := cmp.X, cmp.Y, cmp.Op
	if _, ok := flow.IntConst(x); ok {
		x, y = y, x
		op = mirror(op)
	}
	code, ok = flow.IntConst(y)
	if !ok {
		return nil, 0, 0, false
	}
	if resp = statusOf(x); resp == nil {
		return nil, 0, 0, false
	}
	return resp, op, code, true
}

// flagSenseOf is flagSense for the function call runs: its static callee, or, for a method of
// an interface the package declares, the package's implementations, when they agree.
func flagSenseOf(call *ssa.Call, flag int) (trueFails, ok bool) {
	if !call.Call.IsInvoke() {
		return flagSense(call.Call.StaticCallee(), flag)
	}
	if call.Parent() == nil || call.Parent().Pkg == nil {
		return false, false
	}
	fset := call.Parent().Prog.Fset
	inTest := func(pos token.Pos) bool {
		f := fset.File(pos)
		return f != nil && strings.HasSuffix(f.Name(), "_test.go")
	}
	impls := flow.NewImplementers(call.Parent().Pkg).Of(&call.Call)
	if !inTest(call.Pos()) {
		impls = slices.DeleteFunc(slices.Clone(impls), func(fn *ssa.Function) bool { return inTest(fn.Pos()) }) // a test's fake
	}
	for i, fn := range impls {
		t, known := flagSense(fn, flag)
		if !known || i > 0 && t != trueFails {
			return false, false
		}
		trueFails = t
	}
	return trueFails, len(impls) > 0
}

// sentinelTest returns the error that cmp compares with a package's error variable (err ==
// io.ErrUnexpectedEOF, err != errConflict), when it does.
func sentinelTest(cmp *ssa.BinOp) (ssa.Value, bool) {
	errv, g := sentinelOf(cmp)
	if g == nil || progress(g) {
		return nil, false // (progress: not a failure, the call goes on: readsOn)
	}
	return errv, true
}

// sentinelOf returns the error that cmp compares (== or !=) with a package-level variable, and
// that variable; nil, nil when cmp is no such comparison.
func sentinelOf(cmp *ssa.BinOp) (ssa.Value, *ssa.Global) {
	if cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil, nil
	}
	for _, pair := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
		errv, other := pair[0], flow.Unwrap(pair[1])
		if !typeis.ErrorLike(errv.Type()) || flow.IsNil(other) {
			continue
		}
		if load, ok := other.(*ssa.UnOp); ok && load.Op == token.MUL {
			if g, global := load.X.(*ssa.Global); global {
				return errv, g
			}
		}
	}
	return nil, nil
}

// classifies reports whether v is a call of errors.As: a failure sorted by its type (a status
// error, a network error), not matched against one sentinel.
func classifies(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	id := flow.ID(flow.Callee(c.Common()))
	return knowledge.ErrorsTest(id) && id.Name == "As"
}

// errorsPredicate reports whether v is a call of errors.Is or errors.As, or a comparison of an
// error with a package's error variable.
func errorsPredicate(v ssa.Value) bool {
	if cmp, ok := v.(*ssa.BinOp); ok {
		_, ok := sentinelTest(cmp)
		return ok
	}
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	return knowledge.ErrorsTest(flow.ID(flow.Callee(c.Common())))
}

// afterFailure reports whether block b runs only once call has failed: the failure side of a
// comparison of call's error with nil dominates it.
func afterFailure(b *ssa.BasicBlock, call ssa.CallInstruction, fn *ssa.Function, in func(*ssa.BasicBlock) bool) bool {
	for _, o := range fn.Blocks {
		if o == b || !in(o) {
			continue
		}
		cmp := equality(o)
		if cmp == nil || !flow.IsNil(cmp.X) && !flow.IsNil(cmp.Y) {
			continue
		}
		c, success, _ := outcome(cmp, in)
		if c == call && o.Succs[1-success].Dominates(b) {
			return true
		}
	}
	return false
}

// waitsAfter reports whether the blocks that from dominates (among those for which in holds)
// sleep or wait on a timer.
func waitsAfter(fn *ssa.Function, from *ssa.BasicBlock, in func(*ssa.BasicBlock) bool) bool {
	return waitsIn(fn, func(b *ssa.BasicBlock) bool { return in(b) && from.Dominates(b) }, 0)
}

// waitsBefore reports whether a block that every way to call passes (among those for which in
// holds: in a loop, from its header down to the attempt) sleeps or waits on a timer: the wait of
// a loop that waits at the top of each round, before its attempt.
func waitsBefore(fn *ssa.Function, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool) bool {
	at := call.Block()
	return waitsIn(fn, func(b *ssa.BasicBlock) bool { return in(b) && b.Dominates(at) }, 0)
}

// waitsIn reports whether the blocks of fn for which in holds sleep or wait on a timer, there
// or, depth calls deep, in a function of the package they call (b.wait(ctx), a backoff helper).
func waitsIn(fn *ssa.Function, in func(*ssa.BasicBlock) bool, depth int) bool {
	calls, waits := ownWaits(fn, in, depth == 0) // (in a helper, a timer handed in is the caller's: a timeout it races)
	if waits {
		return true
	}
	if depth >= 1 {
		return false
	}
	return slices.ContainsFunc(calls, func(c ssa.CallInstruction) bool { return calleeWaitsIn(fn, c, depth) })
}

// ownWaits reports whether the blocks of fn for which in holds sleep or wait on a timer in
// their own code, counting receives from channels it cannot place when unknownToo, and
// returns their calls.
func ownWaits(fn *ssa.Function, in func(*ssa.BasicBlock) bool, unknownToo bool) ([]ssa.CallInstruction, bool) {
	var blocks []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if in(b) {
			blocks = append(blocks, b)
		}
	}
	calls := slices.Collect(flow.BlockCalls(blocks))
	if len(sleeps(calls, nil)) > 0 {
		return calls, true
	}
	extra, unknown := channelWaits(fn, in, nil)
	return calls, len(extra) > 0 || len(unknown) > 0 && unknownToo
}

// calleeWaitsIn reports whether c, a call in fn that is not a go statement, calls a function
// of fn's package that waits in its own code (waitsIn one call deep).
func calleeWaitsIn(fn *ssa.Function, c ssa.CallInstruction, depth int) bool {
	if _, started := c.(*ssa.Go); started {
		return false
	}
	callee := c.Common().StaticCallee()
	return callee != nil && callee != fn && callee.Pkg == fn.Pkg && len(callee.Blocks) > 0 &&
		waitsIn(callee, func(*ssa.BasicBlock) bool { return true }, depth+1)
}

// unNot strips logical negations.
func unNot(v ssa.Value) ssa.Value {
	for {
		u, ok := v.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			return v
		}
		v = u.X
	}
}
