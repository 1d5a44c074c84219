package retryscope

import (
	"go/types"
	"iter"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// waitVerdict reads ifInstr's test of the error that a function of the package returns when it
// is handed the error of an attempt made in the blocks (for which in holds) and returns nil
// only after it waited: if err := w.onFailure(ctx, err, backoff); err != nil { return err }.
// The handler gives up with an error, or waits and says "go on" with nil: it is the loop's
// retry policy and its backoff. waitVerdict returns the attempt it judges and the successor
// taken when the handler gave up, which plays the part of success (the loop is done).
func waitVerdict(ifInstr *ssa.If, in func(*ssa.BasicBlock) bool) (judged ssa.CallInstruction, done int, ok bool) {
	x, nilSide := testedError(ifInstr)
	if x == nil {
		return nil, 0, false
	}
	call := producer(x, in)
	if call == nil {
		return nil, 0, false
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg != call.Parent().Pkg || len(callee.Blocks) == 0 {
		return nil, 0, false
	}
	var param *ssa.Parameter
	for i, a := range call.Common().Args {
		if typeis.ErrorLike(a.Type()) && i < len(callee.Params) {
			if j := attemptOf(a, in, 0); j != nil && j != call {
				judged, param = j, callee.Params[i]
				break
			}
		}
	}
	if judged == nil || !waitsBeforeNil(callee, param) {
		return nil, 0, false
	}
	return judged, 1 - nilSide, true
}

// waitsBeforeNil reports whether fn, whose last result is an error, returns nil there only
// after a wait (a sleep or a timer, there or in a function of the package it calls) and never
// on the side of a test that finds failed, the error it is handed, nil (a pause after a success
// paces a schedule, it is no backoff); and returns an error on some other way.
func waitsBeforeNil(fn *ssa.Function, failed *ssa.Parameter) bool {
	res := fn.Signature.Results()
	if res.Len() == 0 || !typeis.ErrorLike(res.At(res.Len()-1).Type()) {
		return false
	}
	nils, errs := 0, 0
	for v, b := range lastResults(fn) {
		if !flow.IsNil(v) {
			errs++
			continue
		}
		nils++
		if !waitsIn(fn, func(o *ssa.BasicBlock) bool { return o.Dominates(b) }, 0) || onNilSide(b, failed) {
			return false
		}
	}
	return nils > 0 && errs > 0
}

// lastResults yields, for each way fn returns, its last result (with defers, the value stored
// into the result's local: returned) and the block of the Return.
func lastResults(fn *ssa.Function) iter.Seq2[ssa.Value, *ssa.BasicBlock] {
	return func(yield func(ssa.Value, *ssa.BasicBlock) bool) {
		for ret := range flow.Returns(fn) {
			if b := ret.Block(); len(ret.Results) > 0 && b != fn.Recover && !yield(returned(ret.Results[len(ret.Results)-1]), b) {
				return
			}
		}
	}
}

// onNilSide reports whether a test that finds p nil dominates b, from its nil side.
func onNilSide(b *ssa.BasicBlock, p *ssa.Parameter) bool {
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifInstr, ok := lastInstr(d).(*ssa.If)
		if !ok {
			continue
		}
		if errv, nilSide := testedError(ifInstr); errv == ssa.Value(p) && d.Succs[nilSide].Dominates(b) {
			return true
		}
	}
	return false
}

// afterTimeoutOnly reports whether d's failure goes round loop l only through a test that
// the error is a timeout (net.Error's Timeout()): the attempt that goes round has waited its
// own timeout out (a DNS query sent again when no answer came in time), which is the wait
// between attempts.
func afterTimeoutOnly(l *loops.Loop, d decision) bool {
	fail, contra := d.block.Succs[1-d.success], contradicts(d)
	if !l.CanRepeatAvoiding(fail, contra) {
		return false
	}
	return !l.CanRepeatAvoiding(fail, func(e loops.Edge) bool { return timedOutSide(e) || contra(e) })
}

// timedOutSide reports whether e leaves a test of an error's Timeout() on the side where it
// holds: net.Error's method (through net.Error or an interface that embeds it), or the method
// of a standard library error type (*net.OpError, *url.Error, *net.DNSError).
func timedOutSide(e loops.Edge) bool {
	ifInstr, ok := lastInstr(e.From).(*ssa.If)
	if !ok {
		return false
	}
	c, ok := unNot(ifInstr.Cond).(*ssa.Call)
	if !ok {
		return false
	}
	com := c.Common()
	var recv types.Type
	switch callee := com.StaticCallee(); {
	case com.IsInvoke() && com.Method.Name() == "Timeout" && com.Method.Pkg() != nil && com.Method.Pkg().Path() == "net":
		recv = com.Value.Type()
	case callee != nil && callee.Name() == "Timeout" && callee.Pkg != nil && ssapkg.IsStdPath(callee.Pkg.Pkg.Path()) && len(com.Args) == 1:
		recv = com.Args[0].Type()
	default:
		return false
	}
	sig := com.Signature()
	if recv == nil || !typeis.ErrorLike(recv) || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !typeis.Bool(sig.Results().At(0).Type()) {
		return false
	}
	holds := 0
	if countNots(ifInstr.Cond)%2 == 1 {
		holds = 1
	}
	return e.To == e.From.Succs[holds]
}

// waitsOnFlag reports whether loop l of fn waits, before its attempt, when a flag carried
// round the loop holds, and the way round from d's failure sets it (for { if backingOff {
// time.Sleep(b.Next()) }; err := stream(); if err != nil { backingOff = true; ...; continue }
// ... }): the failure's wait, made at the top of the next round.
func waitsOnFlag(fn *ssa.Function, l *loops.Loop, d decision) bool {
	fail := d.block.Succs[1-d.success]
	for _, b := range l.Blocks(fn) {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok {
			continue
		}
		phi, ok := unNot(ifInstr.Cond).(*ssa.Phi)
		if !ok || phi.Block() != l.Header || !typeis.Bool(phi.Type()) {
			continue
		}
		holds := 0
		if countNots(ifInstr.Cond)%2 == 1 {
			holds = 1
		}
		set := false
		for i, e := range phi.Edges {
			if v, isConst := flow.BoolConst(e); isConst && v && i < len(l.Header.Preds) && l.Contains(l.Header.Preds[i]) {
				back := l.Header.Preds[i]
				set = set || l.CanRepeatAvoiding(fail, func(e loops.Edge) bool { return e.To == l.Header && e.From != back })
			}
		}
		if set && waitsAfter(fn, b.Succs[holds], l.Contains) {
			return true
		}
	}
	return false
}
