package retryscope

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// pacedOnSuccess reports whether a long-running loop that asks a remote dependency for work
// (d.call, which may leave the process) paces the rounds where the call succeeded (it waits on
// the success side, after the work) but goes round at once when the call failed, on any error:
// with the dependency down every round fails at once, and the loop spins against it. A test
// that singles an error out (a long poll's timeout, the program's own sentinel) is not any error.
func (st *state) pacedOnSuccess(fn *ssa.Function, l *loops.Loop, d decision) bool {
	if st.rem.Reach(d.call) != remote.ReachRemote || !waitsAfter(fn, d.block.Succs[d.success], l.Contains) {
		return false
	}
	return anyError(d)
}

// failsAtOnce reports whether a long-running loop l's attempt d.call is a request to a remote
// dependency that nothing paces: it may leave the process, any error goes round (anyError),
// neither it nor its callees wait (no waitsFact: no backoff of their own, no rate limiter),
// and the loop waits for no event on the way from a failure back to the attempt
// (blocksOnEvent: a flusher that writes when asked to). A long poll whose answers pace the
// loop while the server is up, or any request a worker makes round after round, fails at
// once while the dependency is down: the loop then spins against it.
func (st *state) failsAtOnce(fn *ssa.Function, l *loops.Loop, d decision) bool {
	if st.rem.Reach(d.call) != remote.ReachRemote || !anyError(d) || st.calleeWaits(d.call) != nil || st.blocksOnEvent(fn, l, d) {
		return false
	}
	// Any error goes round: not only past a later test that singles one out (a pipeline's
	// drain that reads on after a server error for one query, and stops on any other).
	return l.CanRepeatAvoiding(d.block.Succs[1-d.success], func(e loops.Edge) bool {
		test, ok := lastInstr(e.From).(*ssa.If)
		if !ok {
			return false
		}
		_, singles := singlesOut(unNot(test.Cond), d.call, l.Contains)
		return singles
	})
}

// anyError reports whether decision d's failure side takes every error of its call (err !=
// nil), not one a test singles out (a long poll's timeout, the program's own sentinel).
func anyError(d decision) bool {
	ifInstr, ok := lastInstr(d.block).(*ssa.If)
	return ok && failuresOf(d) == AnyFailure && !errorsPredicate(unNot(ifInstr.Cond))
}

// blocksOnEvent reports whether loop l, on the way from a failure of d's call back to the
// attempt, waits for an event: in a block that comes before the attempt on every round, or
// that the failure side leads through, a receive, a select without default, a send (a
// semaphore's slot), sync.Cond.Wait or sync.WaitGroup.Wait, in the loop's code or in a
// function of the package it calls there (two calls deep).
func (st *state) blocksOnEvent(fn *ssa.Function, l *loops.Loop, d decision) bool {
	fail, at := d.block.Succs[1-d.success], d.call.Block()
	for _, b := range l.Blocks(fn) {
		onTheWay := b.Dominates(at) || fail.Dominates(b) ||
			!l.CanRepeatAvoiding(fail, func(e loops.Edge) bool { return e.To == b })
		if onTheWay && waitsForEvent(b, fn.Pkg, 0) {
			return true
		}
	}
	return false
}

// waitsForEvent reports whether block b waits for an event (see blocksOnEvent), itself or in
// a function of package pkg it calls, depth calls deep at most 2.
func waitsForEvent(b *ssa.BasicBlock, pkg *ssa.Package, depth int) bool {
	if receivesFrom(b, func(ssa.Value) bool { return true }) {
		return true
	}
	for _, instr := range b.Instrs {
		switch x := instr.(type) {
		case *ssa.Send:
			return true
		case *ssa.Call:
			if id := flow.ID(flow.Callee(x.Common())); id.Pkg == "sync" && id.Name == "Wait" && (id.Recv == "Cond" || id.Recv == "WaitGroup") {
				return true
			}
			if g := x.Call.StaticCallee(); g != nil && g.Pkg == pkg && depth < 2 {
				if slices.ContainsFunc(g.Blocks, func(gb *ssa.BasicBlock) bool { return waitsForEvent(gb, pkg, depth+1) }) {
					return true
				}
			}
		}
	}
	return false
}
