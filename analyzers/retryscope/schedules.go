package retryscope

// Loops that run on a schedule or on arrivals: a ticker or timer decides when each round
// runs, after a success as after a failure, or an event starts it.

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// failureResets reports whether the failure side of d resets the timer maker made to a delay
// of its own, one that no other reset in the loop uses (on failure timer.Reset(time.Second),
// on success timer.Reset(ttl/2)): the failure is tried again after its own wait, off the
// schedule.
func failureResets(d decision, l *loops.Loop, maker *ssa.Call) bool {
	fail := d.block.Succs[1-d.success]
	var onFailure, elsewhere []ssa.Value
	for _, b := range l.Blocks(d.call.Parent()) {
		for c := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
			delay, ok := resetOf(c, maker)
			switch {
			case !ok || delay == nil:
			case fail.Dominates(b):
				onFailure = append(onFailure, flow.Unwrap(delay))
			default:
				elsewhere = append(elsewhere, flow.Unwrap(delay))
			}
		}
	}
	same := func(a, b ssa.Value) bool {
		if pa, pb := flow.PlaceOf(a), flow.PlaceOf(b); pa.Root != nil && pa == pb {
			return true // two loads of u.interval
		}
		return sameValue(a, b) || flow.SameValue(a, b) || flow.SameValue(b, a)
	}
	for _, f := range onFailure {
		if !slices.ContainsFunc(elsewhere, func(e ssa.Value) bool { return same(f, e) }) {
			return true
		}
	}
	return false
}

// afterEvent reports whether call runs, each round, only after an event arrives: a blocking
// receive from a channel that is not a timer's (a notification, a work item) dominates it in
// the loop, either alone or as the select case that leads to it (for { select { case <-changed:
// v, err := read(); if err != nil { continue }; ...; case <-ctx.Done(): return } }). Each round
// answers a new event, as a consumer does; going round waits for the next one, it does not
// send the same request again.
func afterEvent(call ssa.CallInstruction, l *loops.Loop) bool {
	return afterReceive(call, l, func(ch ssa.Value) bool {
		_, isChan := ch.Type().Underlying().(*types.Chan)
		return isChan && !typeis.TimeChan(ch.Type()) && timeChanMaker(ch) == nil && sleepSignal(ch, l.Contains) == nil
	})
}

// onSchedule reports whether the attempt of decision d runs, each round, only after a tick of
// a ticker made before the loop (for { select { case <-ticker.C: if err := reload(); err != nil
// { log; continue } ... } }), or after the firing of a timer made before the loop when a
// success goes round as well (each way round resets it: a periodic check that also stops
// once it found what it looks for). The rounds keep the schedule whether the call failed or
// not, so a failure waits for the next scheduled run; it is not retried sooner. A blocking
// select with such a case counts: it runs the attempt on the tick or on another event.
func onSchedule(d decision, ds []decision, l *loops.Loop) bool {
	// A success goes round: the success side of a test of a call's outcome leads back to the
	// next round without passing the failure side of another test (rel, err := latest(); if
	// err == nil && rel.Tag <= current { timer.Reset(interval); continue }).
	again := slices.ContainsFunc(ds, func(o decision) bool {
		return !o.policy && l.CanRepeatAvoiding(o.block.Succs[o.success], func(e loops.Edge) bool {
			return slices.ContainsFunc(ds, func(f decision) bool { return e.From == f.block && e.To == f.block.Succs[1-f.success] })
		})
	})
	schedule := func(ch ssa.Value) bool {
		m := timeChanMaker(ch)
		if m == nil {
			// A channel of times made before the loop by a function the package does not
			// show (another package's ticker whose first tick is random): when a success goes
			// round too, its ticks pace every round, failed or not.
			return again && typeis.TimeChan(ch.Type()) && madeBefore(ch, l)
		}
		if l.Contains(m.Block()) {
			return false
		}
		name := flow.ID(flow.Callee(m.Common())).Name
		return name == "NewTicker" || name == "Tick" || name == "NewTimer" && again && !failureResets(d, l, m)
	}
	if afterReceive(d.call, l, schedule) {
		return true
	}
	// Or every way round from the failure waits for a tick, and a success goes round too,
	// waiting for one as well: for { conn, err := acquire(); if err != nil { <-ticker.C;
	// continue }; sweep(conn); select { case <-ctx.Done(): return; case <-ticker.C: } }.
	if again && everyWayRound(d.block.Succs[1-d.success], l, func(b *ssa.BasicBlock) bool { return receivesFrom(b, schedule) }) {
		return true
	}
	at := d.call.Block()
	for _, b := range l.Blocks(d.call.Parent()) {
		for _, instr := range b.Instrs {
			if sel, ok := instr.(*ssa.Select); ok && sel.Blocking && b.Dominates(at) &&
				slices.ContainsFunc(sel.States, func(st *ssa.SelectState) bool { return st.Dir == types.RecvOnly && schedule(st.Chan) }) {
				return true
			}
		}
	}
	return false
}

// madeBefore reports whether v is not made in loop l: a value of an instruction outside it, a
// parameter, a global or a constant.
func madeBefore(v ssa.Value, l *loops.Loop) bool {
	if instr, ok := flow.Unwrap(v).(ssa.Instruction); ok {
		return !l.Contains(instr.Block())
	}
	return true
}

// everyWayRound reports whether every way from b back to the loop's header passes a block for
// which passes holds.
func everyWayRound(b *ssa.BasicBlock, l *loops.Loop, passes func(*ssa.BasicBlock) bool) bool {
	return passes(b) || !l.CanRepeatAvoiding(b, func(e loops.Edge) bool { return passes(e.To) })
}

// receivesFrom reports whether block b receives from a channel for which chosen holds, alone
// or in a blocking select.
func receivesFrom(b *ssa.BasicBlock, chosen func(ssa.Value) bool) bool {
	for _, instr := range b.Instrs {
		switch x := instr.(type) {
		case *ssa.UnOp:
			if x.Op == token.ARROW && chosen(x.X) {
				return true
			}
		case *ssa.Select:
			if x.Blocking && slices.ContainsFunc(x.States, func(st *ssa.SelectState) bool { return st.Dir == types.RecvOnly && chosen(st.Chan) }) {
				return true
			}
		}
	}
	return false
}

// afterReceive reports whether a blocking receive from a channel for which chosen holds
// dominates call in the loop, either alone or as the select case that leads to it.
func afterReceive(call ssa.CallInstruction, l *loops.Loop, chosen func(ch ssa.Value) bool) bool {
	at := call.Block()
	fn := call.Parent()
	event := chosen
	for _, b := range fn.Blocks {
		if !l.Contains(b) {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && !x.CommaOk && event(x.X) && b.Dominates(at) && b != at {
					return true
				}
			case *ssa.Select:
				if !x.Blocking {
					continue
				}
				for i, st := range x.States {
					if st.Dir == types.RecvOnly && event(st.Chan) {
						// The case's own body: a block that only this case reaches (an empty
						// body falls through to what every case runs).
						if taken := selectCase(x, i); taken != nil && len(taken.Preds) == 1 && l.Contains(taken) && taken.Dominates(at) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// selectCase returns the block a select goes to when it chooses case i (the true side of the
// test of its index against i), or nil.
func selectCase(sel *ssa.Select, i int) *ssa.BasicBlock {
	for _, ref := range *sel.Referrers() {
		idx, ok := ref.(*ssa.Extract)
		if !ok || idx.Index != 0 {
			continue
		}
		for _, r := range *idx.Referrers() {
			cmp, ok := r.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL {
				continue
			}
			if n, ok := flow.IntConst(cmp.Y); !ok || n != int64(i) {
				continue
			}
			for _, u := range *cmp.Referrers() {
				if ifInstr, ok := u.(*ssa.If); ok {
					return ifInstr.Block().Succs[0]
				}
			}
		}
	}
	return nil
}

// pollPeriod marks as a poll's waits (Sleep.AfterSuccess) the fixed waits of loop l that wait
// the period the loop waits after d's call succeeded and the loop goes round for another look
// (a state not reached yet), when a failure waits that same period: the loop polls at one
// rate whatever each round found (for { select { case <-ctx.Done(): return; case
// <-time.After(s.PollInterval): }; resp, err := c.Do(req); if err != nil { continue }; if
// !ready(resp) { continue }; return nil }). Like a schedule's, its rounds keep their pace: a
// failure is not tried again sooner than a round that found nothing.
func pollPeriod(fn *ssa.Function, sleeps []Sleep, l *loops.Loop, d decision) {
	ok := d.block.Succs[d.success]
	if !l.CanRepeat(ok) {
		return
	}
	var period []ssa.Value
	for _, sl := range sleeps {
		at := sl.blockIn(fn)
		if sl.Duration == nil || at == nil {
			continue
		}
		// After a success that goes round, or before every attempt.
		if ok.Dominates(at) && enteredOnlyFrom(ok, d.block) && l.CanRepeat(at) && !afterFailureStatus(at, l) || l.EveryRound(at) && at.Dominates(d.block) {
			period = append(period, sl.Duration)
		}
	}
	if len(period) == 0 {
		return
	}
	for i, sl := range sleeps {
		if sl.Duration != nil && slices.ContainsFunc(period, func(p ssa.Value) bool { return sameDuration(p, sl.Duration) }) {
			sleeps[i].AfterSuccess = true
		}
	}
}

// sameDuration reports whether two durations are the same value: the same SSA value, equal
// constants, or loads of the same field or variable.
func sameDuration(a, b ssa.Value) bool {
	a, b = flow.Unwrap(a), flow.Unwrap(b)
	if sameValue(a, b) {
		return true
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	return ok1 && ok2 && la.Op == token.MUL && lb.Op == token.MUL && flow.SameAddr(la.X, lb.X)
}
