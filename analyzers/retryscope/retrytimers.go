package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
)

// Retry timers: a function of the package that returns a channel on which a goroutine it
// starts sends once per attempt, waiting between the sends (a client's newRetryTimer), used as
//
//	for range c.newRetryTimer(ctx, maxRetry, unit, cap, jitter) {
//		res, err = c.httpClient.Do(req)
//		if err != nil {
//			continue
//		}
//		return res, nil
//	}
//
// The range is a retry loop whose waits, bound and deadline are the goroutine's.

// rangesOverTimer returns the summary of the retry timer whose channel loop l ranges over,
// or nil.
func (st *state) rangesOverTimer(fn *ssa.Function, l *loops.Loop) *iteratorFact {
	for _, instr := range l.Header.Instrs {
		recv, ok := instr.(*ssa.UnOp)
		if !ok || recv.Op != token.ARROW || !recv.CommaOk {
			continue
		}
		call, ok := flow.Unwrap(recv.X).(*ssa.Call)
		if !ok || l.Contains(call.Block()) {
			continue
		}
		if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg == fn.Pkg {
			return st.retryTimer(callee)
		}
	}
	return nil
}

// retryTimer summarises fn when it is a retry timer: it makes the channel it returns, and a
// goroutine it starts loops, sending on that channel every round and waiting between the
// sends. A goroutine that does not wait relays items; one with nothing bounding its rounds
// but its context is still a timer (its bound is none).
func (st *state) retryTimer(fn *ssa.Function) *iteratorFact {
	if f, ok := st.timerMemo[fn]; ok {
		return f
	}
	st.timerMemo[fn] = nil
	f := st.findRetryTimer(fn)
	st.timerMemo[fn] = f
	return f
}

func (st *state) findRetryTimer(fn *ssa.Function) *iteratorFact {
	var ch ssa.Value // the channel made, or the variable holding it when a closure captures it
	for ret := range flow.Returns(fn) {
		if len(ret.Results) != 1 {
			return nil
		}
		v := flow.Unwrap(ret.Results[0])
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			if stored := flow.Stored(load.X); len(stored) == 1 {
				if _, made := flow.Unwrap(stored[0]).(*ssa.MakeChan); made {
					v = load.X
				}
			}
		} else if _, made := v.(*ssa.MakeChan); !made {
			return nil
		}
		if ch != nil && v != ch {
			return nil
		}
		ch = v
	}
	if ch == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			mc, ok := g.Call.Value.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			body, ok := mc.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			for i, v := range mc.Bindings {
				if v != ch || i >= len(body.FreeVars) {
					continue
				}
				if f := st.timerLoop(body, body.FreeVars[i]); f != nil {
					return f
				}
			}
		}
	}
	return nil
}

// timerLoop summarises the loop of goroutine body that sends on ch every round and waits
// between the sends; nil when there is none.
func (st *state) timerLoop(body *ssa.Function, ch *ssa.FreeVar) *iteratorFact {
	for _, l := range loops.Of(body) {
		if !sendsEveryRound(body, l, ch) {
			continue
		}
		calls := slices.Collect(flow.BlockCalls(l.Blocks(body)))
		w := st.waitsOf(body, calls, l.Contains, l, nil)
		if w.Kind == WaitNone {
			continue
		}
		return &iteratorFact{Attempts: st.loopBound(body, l, nil), Wait: w.Kind, Deadline: observesDeadline(calls)}
	}
	return nil
}

// sendsEveryRound reports whether a block of l that every round passes (it dominates the
// way back to the header) sends on ch: a send statement, or a blocking select with a send
// case on it.
func sendsEveryRound(fn *ssa.Function, l *loops.Loop, ch ssa.Value) bool {
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			sends := false
			on := func(c ssa.Value) bool {
				load, ok := c.(*ssa.UnOp)
				return c == ch || ok && load.Op == token.MUL && load.X == ch // or the captured variable's value
			}
			switch x := instr.(type) {
			case *ssa.Send:
				sends = on(x.Chan)
			case *ssa.Select:
				for _, s := range x.States {
					sends = sends || s.Dir == types.SendOnly && on(s.Chan)
				}
			}
			if sends && l.EveryRound(b) {
				return true
			}
		}
	}
	return false
}
