package retryscope

import (
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// sleeps returns the waiting calls among calls, each with the kind of its delay.
func sleeps(calls []ssa.CallInstruction, l *loops.Loop) []Sleep {
	var out []Sleep
	for _, c := range calls {
		d := sleepDuration(c)
		if _, started := c.(*ssa.Go); started || d == nil {
			continue
		}
		if n, ok := flow.IntConst(d); ok && n <= 0 {
			continue // timer.Reset(0): at once, no wait
		}
		if call, ok := c.(*ssa.Call); ok && timesOutWork(call) {
			continue // a timeout raced against the attempt's result, not a wait between attempts
		}
		out = append(out, Sleep{Call: c, Duration: d, Kind: delayKind(d, l)})
	}
	return out
}

// sleepDuration returns the duration argument when call waits: time.Sleep, time.After,
// time.NewTimer, time.Tick, a timer's Reset, or a call through an interface or function value
// shaped like a wait (see below). Functions with a body are judged by it (funcWaits, waitsFact),
// never by their names.
func sleepDuration(call ssa.CallInstruction) ssa.Value {
	c := call.Common()
	args := c.Args
	if fn := flow.Callee(c); fn != nil && flow.ID(fn).Pkg == "time" {
		id := flow.ID(fn)
		switch {
		case id.Recv == "" && oneOf(id.Name, "Sleep", "After", "NewTimer", "Tick", "NewTicker"):
			// (not AfterFunc: it schedules work for later and returns at once)
			if len(args) > 0 {
				return args[0]
			}
		case id.Recv == "Timer" && id.Name == "Reset", id.Recv == "Ticker" && id.Name == "Reset":
			if len(args) > 1 && !afterFunc(args[0]) {
				return args[1]
			}
		}
		return nil
	}
	if fn := flow.Callee(c); fn != nil {
		if i := knowledge.TimerDuration(fn); i >= 0 && i < len(args) {
			return args[i] // a workflow's durable timer
		}
	}
	if res := c.Signature().Results(); res.Len() > 0 && typeis.Duration(res.At(0).Type()) {
		return nil // it computes a delay (nextSleep, backoffDuration); the caller waits
	}
	if c.StaticCallee() != nil {
		return nil // a function with a body: its waitsFact or its code says how it waits
	}
	// A call through an interface or a function value (an injected clock's Sleep, a
	// configured wait func) that takes a duration and at most a context, and returns nothing,
	// an error or a channel of time: it waits for that duration.
	sig := c.Signature()
	var d ssa.Value
	for i := range sig.Params().Len() {
		switch t := sig.Params().At(i).Type(); {
		case typeis.Duration(t) && d == nil:
			d = args[i]
		case typeis.Named(t, "context", "Context"):
		default:
			return nil
		}
	}
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		if ch, ok := t.Underlying().(*types.Chan); ok && typeis.Named(ch.Elem(), "time", "Time") || typeis.ErrorLike(t) {
			continue
		}
		return nil
	}
	return d
}

// channelWaits returns the waits on channels of time.Time in the blocks (a ticker's or
// timer's C, time.After's result, a method returning one): when the channel comes from
// time.NewTimer or NewTicker made outside the blocks, a Sleep with its duration; when it comes
// from one made inside them, or from time.After, nothing (sleeps counts that call); otherwise
// a wait the model cannot see, in unknown (where it is received).
func channelWaits(fn *ssa.Function, in func(*ssa.BasicBlock) bool, l *loops.Loop) (extra []Sleep, unknown []ssa.Instruction) {
	seen := make(map[*ssa.Call]bool)
	wait := func(instr ssa.Instruction, ch ssa.Value) {
		if sl := sleepSignal(ch, in); sl != nil {
			if !seen[sl] {
				seen[sl] = true
				d := sl.Call.Args[0]
				extra = append(extra, Sleep{Call: sl, Duration: d, Kind: delayKind(d, l), At: instr})
			}
			return
		}
		if !typeis.TimeChan(ch.Type()) {
			return
		}
		maker := timeChanMaker(ch)
		var again bool // the timer is made again in the blocks, which sleeps counts
		if maker != nil {
			again = remadeIn(ch, in)
		}
		switch {
		case maker == nil:
			unknown = append(unknown, instr)
		case in(maker.Block()), again, resetIn(fn, in, maker), seen[maker]:
			// sleeps counts the call that makes or resets the timer in the blocks; one
			// timer received from in several places is one wait
		default:
			seen[maker] = true
			d := maker.Call.Args[0]
			extra = append(extra, Sleep{Call: maker, Duration: d, Kind: delayKind(d, l), At: instr})
		}
	}
	for instr, ch := range blockingReceives(fn, in, l) {
		wait(instr, ch)
	}
	return extra, unknown
}

// blockingReceives yields the receives in fn's blocks (in) that may block, with the channel of each: a
// <-ch, and each case of a blocking select that receives without leaving loop l (when l is
// set). A select with a default never waits (select { case <-deadline.C: ...; default: }).
func blockingReceives(fn *ssa.Function, in func(*ssa.BasicBlock) bool, l *loops.Loop) iter.Seq2[ssa.Instruction, ssa.Value] {
	return func(yield func(ssa.Instruction, ssa.Value) bool) {
		for _, b := range fn.Blocks {
			if !in(b) {
				continue
			}
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.UnOp:
					if x.Op == token.ARROW && !yield(x, x.X) {
						return
					}
				case *ssa.Select:
					if !x.Blocking {
						continue
					}
					for i, st := range x.States {
						if st.Dir == types.RecvOnly && !(l != nil && leavesOn(x, i, l)) && !yield(x, st.Chan) {
							return
						}
					}
				}
			}
		}
	}
}

// timesOutWork reports whether maker, a time.NewTimer or time.After call, makes a timeout
// rather than a wait: every receive from its channel (in the function, or in a function of
// the package the timer is handed to) is a case of a select that also receives a result, a
// value of another kind than time or an empty struct (select { case r := <-done: return r;
// case <-timer.C: return errTimeout }). Such a select ends when the work answers; the timer
// only bounds how long it may take. A channel used in any other way is taken for a wait; a
// timer stored in a struct (a watchdog that resets it) is judged by the receives found.
func timesOutWork(maker *ssa.Call) bool {
	id := flow.ID(flow.Callee(maker.Common()))
	if id.Pkg != "time" || id.Recv != "" || id.Name != "NewTimer" && id.Name != "After" {
		return false
	}
	races, found := true, false
	var chans func(v ssa.Value, timer bool, depth int)
	recv := func(ch ssa.Value, user ssa.Instruction) {
		found = true
		sel, ok := user.(*ssa.Select)
		if !ok || !sel.Blocking {
			races = false
			return
		}
		for _, st := range sel.States {
			if st.Dir == types.SendOnly && handedWork(st.Send) {
				return // it races the handoff of work made here (an enqueue that may time out)
			}
			if st.Dir != types.RecvOnly || st.Chan == ch {
				continue
			}
			if resultCase(st) && madeHere(st.Chan) {
				return // it races a result
			}
		}
		races = false
	}
	chans = func(v ssa.Value, timer bool, depth int) {
		refs := v.Referrers()
		if refs == nil || depth > 2 {
			races = false
			return
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.FieldAddr:
				if !timer {
					races = false
					continue
				}
				if fv := flow.FieldVar(r); fv == nil || fv.Name() != "C" {
					continue
				}
				for _, u := range *r.Referrers() {
					if load, ok := u.(*ssa.UnOp); ok && load.Op == token.MUL {
						for _, uu := range *load.Referrers() {
							if phi, ok := uu.(*ssa.Phi); ok && phi.Referrers() != nil {
								// var ch <-chan time.Time; if more { ch = timer.C }: a nil
								// channel on the other way, never ready.
								for _, p := range *phi.Referrers() {
									recv(phi, p)
								}
								continue
							}
							recv(load, uu)
						}
					}
				}
			case ssa.CallInstruction:
				c := r.Common()
				callee := c.StaticCallee()
				if timer && c.Value != v && flow.ID(flow.Callee(c)).Pkg == "time" {
					continue // its own methods: Stop, Reset
				}
				if callee == nil || callee.Pkg != maker.Parent().Pkg || len(callee.Blocks) == 0 {
					races = false
					continue
				}
				for i, a := range c.Args {
					if a == v && i < len(callee.Params) {
						chans(callee.Params[i], timer, depth+1)
					}
				}
			case *ssa.Phi:
				chans(r, timer, depth+1) // var timer *time.Timer; if more { timer = time.NewTimer(d) }
			case *ssa.BinOp:
				// if timer != nil { timer.Stop() }: a test, no receive.
			case *ssa.DebugRef:
			case *ssa.Store:
				// Kept in a struct for later (a watchdog that resets it while a body is
				// read): the receives found decide.
			default:
				if !timer {
					recv(v, r)
					continue
				}
				races = false
			}
		}
	}
	chans(maker, id.Name == "NewTimer", 0)
	return found && races
}

// handedWork reports whether v, sent in a select's case, is work the function makes for
// another goroutine to do (case r.applyCh <- future, a struct made here that carries its
// answer back): the select ends when the work is taken, and a timer beside it bounds the
// wait for that, a timeout, not a pause.
func handedWork(v ssa.Value) bool {
	a, ok := flow.Unwrap(v).(*ssa.Alloc)
	return ok && a.Heap
}

// resultCase reports whether a select's case receives a result: a value of another kind than
// time, an empty struct or an os.Signal (case r := <-done), not a tick or a signal.
func resultCase(st *ssa.SelectState) bool {
	ch, ok := st.Chan.Type().Underlying().(*types.Chan)
	return ok && st.Dir == types.RecvOnly && !typeis.TimeChan(ch) && !emptyStruct(ch.Elem()) && !typeis.Named(ch.Elem(), "os", "Signal")
}

// madeHere reports whether ch is a channel the function makes (make(chan T), kept in a local
// variable a goroutine may capture): the answer of work started for this call, not a channel of
// long-lived events.
func madeHere(ch ssa.Value) bool {
	ch = flow.Unwrap(ch)
	if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
		if a, ok := load.X.(*ssa.Alloc); ok {
			return slices.ContainsFunc(flow.Stored(a), func(v ssa.Value) bool {
				_, made := flow.Unwrap(v).(*ssa.MakeChan)
				return made
			})
		}
	}
	_, made := ch.(*ssa.MakeChan)
	return made
}

// emptyStruct reports whether t is struct{} (the element of a signal channel).
func emptyStruct(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// leavesOn reports whether the case i of select sel leaves loop l (case <-deadline.C: return):
// a timer received there ends the retries, it is not a wait between them.
func leavesOn(sel *ssa.Select, i int, l *loops.Loop) bool {
	taken := selectCase(sel, i)
	return taken != nil && !l.CanRepeat(taken)
}

// resetIn reports whether a timer or ticker made by maker is reset in the blocks (the wait
// the blocks choose, which sleeps counts).
func resetIn(fn *ssa.Function, in func(*ssa.BasicBlock) bool, maker *ssa.Call) bool {
	for _, b := range fn.Blocks {
		if !in(b) {
			continue
		}
		for c := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
			if _, ok := resetOf(c, maker); ok {
				return true
			}
		}
	}
	return false
}

// resetOf reports whether c resets a timer or ticker made by maker, and returns the delay it
// resets it to (nil when c passes none).
func resetOf(c ssa.CallInstruction, maker *ssa.Call) (ssa.Value, bool) {
	args := c.Common().Args
	id := flow.ID(flow.Callee(c.Common()))
	if id.Pkg != "time" || id.Name != "Reset" || len(args) == 0 {
		return nil, false
	}
	made := false
	flow.Backward(args[0], 16, func(x ssa.Value) bool {
		made = made || x == maker
		return !made
	})
	if !made {
		return nil, false
	}
	if len(args) < 2 {
		return nil, true
	}
	return args[1], true
}

// timerOf returns the value a time channel comes from: the timer or ticker whose C field ch
// loads (timer.C), or ch itself.
func timerOf(ch ssa.Value) ssa.Value {
	v := flow.Unwrap(ch)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			return fa.X
		}
	}
	return v
}

// remadeIn reports whether ch, a timer's channel, comes (through a variable the blocks assign
// again, a phi) from a time.NewTimer or time.After call made in the blocks for which in holds:
// timer := time.NewTimer(0) before the loop, timer = time.NewTimer(wait) after each failure.
func remadeIn(ch ssa.Value, in func(*ssa.BasicBlock) bool) bool {
	found := false
	flow.Backward(timerOf(ch), 16, func(x ssa.Value) bool {
		if call, ok := x.(*ssa.Call); ok {
			id := flow.ID(flow.Callee(call.Common()))
			found = found || id.Pkg == "time" && id.Recv == "" && oneOf(id.Name, "NewTimer", "After") && in(call.Block())
			return false
		}
		return !found
	})
	return found
}

// timeChanMaker returns the time.NewTimer, NewTicker, After or Tick call that made ch (a
// result, or the C field of one), or nil.
func timeChanMaker(ch ssa.Value) *ssa.Call {
	var maker *ssa.Call
	flow.Backward(timerOf(ch), 16, func(x ssa.Value) bool {
		if call, ok := x.(*ssa.Call); ok {
			id := flow.ID(flow.Callee(call.Common()))
			if id.Pkg == "time" && id.Recv == "" && oneOf(id.Name, "NewTimer", "NewTicker", "After", "Tick") && len(call.Call.Args) == 1 {
				maker = call
			} else if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg == call.Parent().Pkg && len(callee.Blocks) > 0 && callee != call.Parent() {
				// A helper of the package that returns one (randomTimeout(d) returning
				// time.After(d + jitter)): the timer it makes.
				for ret := range flow.Returns(callee) {
					if len(ret.Results) == 1 && maker == nil {
						if m := timeChanMaker(ret.Results[0]); m != nil && m.Parent() == callee {
							maker = m
						}
					}
				}
			}
			return false
		}
		return maker == nil
	})
	return maker
}

// sleepSignal returns the time.Sleep of the goroutine that closes channel ch, or sends on it,
// once it has slept, when the channel is made and the goroutine started in the blocks for
// which in holds (each round, in a loop) and nothing else sends on the channel or closes it:
// a timer made by hand (ping := make(chan struct{}); go func() { time.Sleep(d); close(ping)
// }(); select { case <-ping: case <-ctx.Done(): ... }). nil otherwise.
func sleepSignal(ch ssa.Value, in func(*ssa.BasicBlock) bool) *ssa.Call {
	load, ok := flow.Unwrap(ch).(*ssa.UnOp)
	if !ok || load.Op != token.MUL || !madeHere(ch) {
		return nil // (a channel a goroutine closes is captured: a variable it shares)
	}
	box, ok := load.X.(*ssa.Alloc)
	if !ok || box.Referrers() == nil {
		return nil
	}
	if vals := flow.Stored(box); len(vals) != 1 {
		return nil
	} else if made, ok := vals[0].(ssa.Instruction); !ok || !in(made.Block()) {
		return nil
	}
	var sleep *ssa.Call
	for _, r := range *box.Referrers() {
		switch r := r.(type) {
		case *ssa.Store: // its one store, the channel made
		case *ssa.MakeClosure:
			s := signalAfterSleep(r, box)
			if s == nil || sleep != nil || !goIn(r, in) {
				return nil
			}
			sleep = s
		case *ssa.UnOp:
			if r.Op != token.MUL || r.Referrers() == nil {
				return nil
			}
			for _, u := range *r.Referrers() {
				if !receives(u, r) {
					return nil // handed on, sent on or closed here: not only a sleeper's signal
				}
			}
		default:
			return nil
		}
	}
	return sleep
}

// receives reports whether instr only receives from ch.
func receives(instr ssa.Instruction, ch ssa.Value) bool {
	switch u := instr.(type) {
	case *ssa.UnOp:
		return u.Op == token.ARROW
	case *ssa.Select:
		return !slices.ContainsFunc(u.States, func(st *ssa.SelectState) bool { return st.Chan == ch && st.Dir != types.RecvOnly })
	}
	return false
}

// goIn reports whether closure mc is only started, by a go statement in the blocks for
// which in holds.
func goIn(mc *ssa.MakeClosure, in func(*ssa.BasicBlock) bool) bool {
	refs := *mc.Referrers()
	if len(refs) != 1 {
		return false
	}
	g, ok := refs[0].(*ssa.Go)
	return ok && g.Call.Value == mc && in(g.Block())
}

// signalAfterSleep returns the one time.Sleep of closure mc, when it comes before every close
// of the channel held in box (a variable mc captures), or send on it, and mc does nothing else
// with the channel; nil otherwise.
func signalAfterSleep(mc *ssa.MakeClosure, box *ssa.Alloc) *ssa.Call {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return nil
	}
	var signals []ssa.Instruction
	for i, b := range mc.Bindings {
		if b != box {
			continue
		}
		if i >= len(fn.FreeVars) || fn.FreeVars[i].Referrers() == nil {
			return nil
		}
		for _, r := range *fn.FreeVars[i].Referrers() {
			load, ok := r.(*ssa.UnOp)
			if !ok || load.Op != token.MUL || load.Referrers() == nil {
				return nil
			}
			for _, u := range *load.Referrers() {
				switch u := u.(type) {
				case *ssa.Send:
					if u.Chan != load {
						return nil
					}
					signals = append(signals, u)
				case *ssa.Call:
					if bi, ok := u.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "close" {
						return nil
					}
					signals = append(signals, u)
				default:
					return nil
				}
			}
		}
	}
	// Its only calls are the sleep, the close and those that compute how long to sleep: a
	// goroutine that also does work (err = s.push(); time.Sleep(d); close(done)) is an attempt,
	// not a timer.
	var sleep *ssa.Call
	var others []*ssa.Call
	for call := range flow.Calls(fn) {
		c, ok := call.(*ssa.Call)
		if !ok {
			return nil
		}
		bi, builtin := c.Call.Value.(*ssa.Builtin)
		switch id := flow.ID(flow.Callee(c.Common())); {
		case id.Pkg == "time" && id.Recv == "" && id.Name == "Sleep" && len(c.Call.Args) == 1:
			if sleep != nil {
				return nil
			}
			sleep = c
		case !builtin || bi.Name() != "close":
			others = append(others, c)
		}
	}
	if sleep == nil {
		return nil
	}
	length := make(map[ssa.Value]bool)
	flow.Backward(sleep.Call.Args[0], 64, func(v ssa.Value) bool {
		length[v] = true
		return true
	})
	if slices.ContainsFunc(others, func(c *ssa.Call) bool { return !length[c] }) {
		return nil
	}
	if len(signals) == 0 || slices.ContainsFunc(signals, func(s ssa.Instruction) bool { return !flow.Before(sleep, s) }) {
		return nil
	}
	return sleep
}
