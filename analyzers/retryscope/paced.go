package retryscope

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

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
	ifInstr, ok := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If)
	return ok && failuresOf(d) == AnyFailure && !errorsPredicate(unNot(ifInstr.Cond))
}

// failsAtOnce reports whether a long-running loop l's attempt d.call is a request to a remote
// dependency that nothing inside paces: it may leave the process, its failure side takes
// every error (err != nil, not a long poll's timeout singled out), neither it nor its callees
// wait (no waitsFact: no backoff of their own, no rate limiter), and the loop blocks on no
// event (a receive, a select without default: a flusher that writes when asked to). A long
// poll whose answers pace the loop while the server is up fails at once while it is down:
// the loop then spins against it.
func (st *state) failsAtOnce(fn *ssa.Function, l *loops.Loop, d decision) bool {
	if st.rem.Reach(d.call) != remote.ReachRemote || st.calleeWaits(d.call) != nil || blocksOnEvent(fn, l) {
		return false
	}
	ifInstr, ok := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If)
	if !ok || failuresOf(d) != AnyFailure || errorsPredicate(unNot(ifInstr.Cond)) {
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

// blocksOnEvent reports whether loop l waits for an event in its own code: a receive from a
// channel, or a select without a default case.
func blocksOnEvent(fn *ssa.Function, l *loops.Loop) bool {
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW {
					return true
				}
			case *ssa.Select:
				if x.Blocking {
					return true
				}
			}
		}
	}
	return false
}
