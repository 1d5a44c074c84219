package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// combineWaits summarises the sleeps of a scope: none, or the weakest kind among them; other
// waits (on a timer's channel) make it unknown.
func combineWaits(ss []Sleep, others int) WaitKind {
	if len(ss) == 0 && others == 0 {
		return WaitNone
	}
	if others > 0 {
		return WaitUnknown
	}
	kind := WaitJittered
	for _, s := range ss {
		switch {
		case s.Kind == WaitUnknown:
			return WaitUnknown
		case s.Kind < kind:
			kind = s.Kind
		}
	}
	return kind
}

// waitsOf summarises how the code of fn in the blocks for which in holds waits between
// attempts: its sleeps among calls, its waits on timer channels, and its calls of functions
// that wait, of this package (classified from their bodies) or known through a waitsFact.
//
// A wait belongs to the scope that makes it. A callee's waits are the scope's only when the
// scope decides them: the callee sleeps the duration it is given (a sleep helper), or a
// backoff computed from an argument the loop steps (go-redis's c._process(ctx, cmd, attempt)
// sleeping retryBackoff(attempt)), or it does nothing but wait (it reaches no remote call: a
// backoff helper of the package). A callee that does the attempt's work and sleeps for its own
// reasons (a readiness poll inside a join, a rate-limit wait inside a REST helper, a settle
// delay, pgxpool.ConnectConfig waiting for its connections) waits as part of the attempt.
func (st *state) waitsOf(fn *ssa.Function, calls []ssa.CallInstruction, in func(*ssa.BasicBlock) bool, l *loops.Loop, attempt ssa.CallInstruction) Wait {
	ss := sleeps(calls, l)
	// A wait made only when a caller's option is set, nil by default: by default, none.
	var unset string
	for i := range ss {
		ss[i].Unset = st.unsetByDefault(ss[i])
		ss[i].Kind = st.delayKind(ss[i].Duration, l) // with what the package stores in fields
		if c := ss[i].Call.Common(); c.IsInvoke() {
			// An injected sleeper (s.sleeper.Sleep(d)) whose implementations in the package
			// all randomise the wait they are handed: jittered, whatever d is.
			if w := st.implementersWait(c); w != nil && w.Kind == WaitJittered {
				ss[i].Kind = WaitJittered
			}
		}
	}
	if len(ss) > 0 && !slices.ContainsFunc(ss, func(s Sleep) bool { return s.Unset == "" }) {
		unset, ss = ss[0].Unset, nil
	}
	extra, unknown := channelWaits(fn, in, l)
	for _, sl := range extra {
		if sel, ok := sl.At.(*ssa.Select); ok && st.wokenByEvent(sel, l) {
			// select { case <-ticker.C: case <-q.notify: }: it waits for work to arrive, or
			// the next tick, not out a failure.
			unknown = append(unknown, sel)
			continue
		}
		ss = append(ss, sl)
	}
	unknown = append(unknown, st.eventWaits(fn, in, l)...)
	var wayIn []Sleep
	for _, c := range calls {
		if _, started := c.(*ssa.Go); !started && asksUser(c) {
			unknown = append(unknown, c) // "Try again? (Y/n)": the user decides when
			continue
		}
		if g, started := c.(*ssa.Go); started && (c != attempt || !flow.Awaited(g)) || sleepDuration(c) != nil || c.Common().StaticCallee() == fn {
			// A goroutine's (but the attempt's, run in one and waited for); counted above;
			// the recursive call of a retrying function.
			continue
		}
		w := st.calleeWaits(c)
		if w == nil {
			continue
		}
		s := Sleep{Call: c, Kind: w.Kind}
		args := c.Common().Args
		switch {
		case w.Param >= 0 && w.Param < len(args):
			s.Duration = args[w.Param]
			s.Kind = st.delayKind(s.Duration, l) // the argument, with what the package knows
		case l != nil && slices.ContainsFunc(args, func(a ssa.Value) bool { return changesInLoop(a, l) }):
		case st.rem.Reach(c) == remote.ReachLocal:
		case literalOf(c, fn):
			// err = func() error { ...; sleep until the host's backoff; ...; attempt }(): a
			// function literal called where it is written is the loop's own code.
		case betweenAttempts(c, attempt, l):
			// Called only once the attempt went wrong, on the way to the next one (a reconnect
			// that waits as the server asked, then dials): its wait lies between the attempts.
		case w.OnWayOut:
			// The attempt backs off before it returns (Serve waiting its backoff timer, then
			// returning the error): nothing it does after the wait leaves the process.
			s.Kind = w.OutKind
		case w.OnWayIn:
			// The attempt waits before it sends (a reattach that waits the retry timeout,
			// then asks again): called again, it waits between the two, when the scope makes
			// no wait of its own (else it is a settle delay inside the attempt).
			s.Kind, s.Interruptible = w.InKind, w.InStops
			wayIn = append(wayIn, s)
			continue
		default:
			continue // the attempt's own waiting
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 && len(unknown) == 0 {
		ss = wayIn
	}
	w := Wait{Kind: combineWaits(ss, len(unknown)), Sleeps: ss}
	if w.Kind == WaitNone {
		w.Unset = unset
	}
	return w
}

// literalOf reports whether c calls a function literal of fn where it is made (func() { ...
// }()): its body is fn's own code, written inline.
func literalOf(c ssa.CallInstruction, fn *ssa.Function) bool {
	v := c.Common().Value
	if mc, ok := v.(*ssa.MakeClosure); ok {
		v = mc.Fn
	}
	lit, ok := v.(*ssa.Function)
	return ok && lit.Parent() == fn
}

// unsetByDefault returns the name of the function-valued field whose call computes the sleep's
// duration when the sleep is made only under a test that the same field is not nil, and what
// the package stores into that field is only what its callers give (a field of an options
// struct or a parameter, into which the package puts no default of its own): by default the
// field is nil and the wait is not made. "" otherwise.
func (st *state) unsetByDefault(s Sleep) string {
	if s.Duration == nil || s.Call.Block() == nil {
		return ""
	}
	var field *types.Var
	var place flow.Place
	flow.Backward(s.Duration, 32, func(x ssa.Value) bool {
		if c, ok := x.(*ssa.Call); ok && field == nil {
			if load, ok := c.Call.Value.(*ssa.UnOp); ok && load.Op == token.MUL {
				if fa, ok := load.X.(*ssa.FieldAddr); ok {
					field, place = flow.FieldVar(fa), flow.PlaceOf(load)
				}
			}
		}
		return field == nil
	})
	if field == nil || field.Pkg() != st.pass.Pkg || !flow.GuardedBySet(s.Call.Block(), place) || !st.callersOnly(field) {
		return ""
	}
	return field.Name()
}

// callersOnly reports whether everything the package's production code stores into field
// (at least one value) is a caller's: a parameter, or read from a parameter's field
// (cfg.RetryBackoff) that the storing function does not fill in itself first.
func (st *state) callersOnly(field *types.Var) bool {
	if !st.storesOwn(field) {
		return false
	}
	for _, v := range st.stores.Fields[field] {
		v = flow.Unwrap(v)
		if flow.IsNil(v) || testcode.Made(st.pass, v) {
			continue // nil, or a test's stand-in
		}
		if _, ok := v.(*ssa.Parameter); ok {
			continue
		}
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || !flow.Given(flow.PlaceOf(v).Root) {
			return false
		}
		if fa, ok := load.X.(*ssa.FieldAddr); !ok || storedAt(load.Parent(), flow.PlaceOf(fa)) {
			return false // if cfg.X == nil { cfg.X = def }: the package's default
		}
	}
	return true
}

// storedAt reports whether fn stores into the place at.
func storedAt(fn *ssa.Function, at flow.Place) bool {
	if fn == nil {
		return true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && flow.PlaceOf(st.Addr) == at {
				return true
			}
		}
	}
	return false
}

// storesOwn reports whether the package's production code stores into field.
func (st *state) storesOwn(field *types.Var) bool {
	for _, v := range st.stores.Fields[field] {
		if !testcode.Made(st.pass, v) {
			return true
		}
	}
	return false
}

// ownFunc reports whether call calls a function of this package (or an instance of one).
func (st *state) ownFunc(call ssa.CallInstruction) bool {
	callee := flow.Generic(call.Common().StaticCallee())
	return callee != nil && callee.Pkg == st.ssaPkg
}

// durationParam returns the index of the parameter of fn that d is, or -1.
//
// A helper that waits its delay in steps, to notice a stop (for d > 0 { s := min(step, d);
// time.Sleep(s); d -= s }), waits the whole parameter: a step is min of it, and what is left
// is a phi of the parameter and itself less what was slept.
func durationParam(fn *ssa.Function, d ssa.Value) int {
	if d == nil {
		return -1
	}
	switch v := flow.Unwrap(d).(type) {
	case *ssa.Parameter:
		return slices.Index(fn.Params, v)
	case *ssa.Call:
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "min" {
			for _, a := range v.Call.Args {
				if _, isConst := a.(*ssa.Const); isConst {
					continue
				}
				return durationParam(fn, a)
			}
		}
	case *ssa.Phi:
		p := -1
		for _, e := range v.Edges {
			if sub, ok := e.(*ssa.BinOp); ok && sub.Op == token.SUB && sub.X == v {
				continue // what is left after a step
			}
			param, ok := flow.Unwrap(e).(*ssa.Parameter)
			if !ok || p >= 0 {
				return -1
			}
			p = slices.Index(fn.Params, param)
		}
		return p
	}
	return -1
}

// storedDelays returns the functions the package's production code stores in the field or
// package variable that callee loads, when it stores at least one of its own (a default set
// by a constructor, a literal, a variable's initialiser): the default is what most users run,
// whatever a caller may put there instead (a parameter, a caller's option), which is skipped.
// Nil when the package stores none of its own: what runs is the caller's choice, unknown here.
func (st *state) storedDelays(callee ssa.Value) []*ssa.Function {
	if st == nil {
		return nil
	}
	var fns []*ssa.Function
	ok := true
	var resolve func(v ssa.Value, depth int)
	resolve = func(v ssa.Value, depth int) {
		v = flow.Unwrap(v)
		if !ok || flow.IsNil(v) || testcode.Made(st.pass, v) {
			return // nil, or a test's stand-in
		}
		switch v := v.(type) {
		case *ssa.Function:
			if v.Pkg == st.ssaPkg && len(v.Blocks) > 0 {
				fns = append(fns, v)
				return
			}
		case *ssa.MakeClosure:
			if f, isFn := v.Fn.(*ssa.Function); isFn && len(f.Blocks) > 0 {
				fns = append(fns, f)
				return
			}
		case *ssa.Phi:
			// backoff := DefaultBackoff(); if opts.Backoff != nil { backoff = opts.Backoff }
			if depth < 4 {
				for _, e := range v.Edges {
					resolve(e, depth+1)
				}
				return
			}
		case *ssa.Call:
			// A function of the package that makes the policy (DefaultBackoff() returning
			// its closure): what it returns.
			if f := v.Call.StaticCallee(); f != nil && f.Pkg == st.ssaPkg && len(f.Blocks) > 0 && depth < 4 {
				n := 0
				for ret := range flow.Returns(f) {
					if len(ret.Results) == 1 {
						resolve(ret.Results[0], depth+1)
						n++
					}
				}
				if n > 0 {
					return
				}
			}
		}
		if !flow.Given(flow.PlaceOf(v).Root) {
			ok = false // something else of the package's: a value the model cannot classify
		}
	}
	for _, v := range st.stores.Loaded(callee) {
		resolve(v, 0)
	}
	if !ok {
		return nil
	}
	return fns
}

// delayOf returns the delayFact of fn, a function of another package, or nil.
func (st *state) delayOf(fn *types.Func) *delayFact {
	if st == nil || fn.Pkg() == nil || fn.Pkg() == st.pass.Pkg {
		return nil
	}
	var f delayFact
	if !st.pass.ImportObjectFact(fn, &f) {
		return nil
	}
	return &f
}

// betweenAttempts reports whether call c of a retry loop runs after the attempt, in a block
// the attempt's dominates, on the way round: a loop that leaves on success goes that way only
// once the attempt failed (if !ok { reconnect(); continue }).
func betweenAttempts(c, attempt ssa.CallInstruction, l *loops.Loop) bool {
	if attempt == nil || l == nil || c == attempt {
		return false
	}
	b, ab := c.Block(), attempt.Block()
	if b == nil || ab == nil || b == ab || b.Parent() != ab.Parent() || !ab.Dominates(b) || !l.CanRepeat(b) {
		return false
	}
	for ifInstr, side := range flow.TestsAbove(b) {
		if errv, nilSide := testedError(ifInstr); errv != nil && side == nilSide && producer(errv, l.Contains) == attempt {
			return false // run once the attempt succeeded (if err == nil { ack(msg) }): the attempt's work
		}
	}
	return true
}

// parsedField reports whether ld loads a struct field that the package fills, somewhere, with a
// number parsed from text (strconv.Atoi(value), time.ParseDuration): data read from a peer or
// a file, not a constant or a configuration the program sets.
func (st *state) parsedField(ld *ssa.UnOp) bool {
	fa, ok := ld.X.(*ssa.FieldAddr)
	if st == nil || !ok {
		return false
	}
	fv := flow.FieldVar(fa)
	if fv == nil {
		return false
	}
	for _, v := range st.stores.Fields[fv] {
		parsed := false
		flow.Backward(v, 16, func(x ssa.Value) bool {
			if c, ok := x.(*ssa.Call); ok {
				parsed = knowledge.ParsesText(flow.Callee(c.Common()))
				return false
			}
			return true
		})
		if parsed {
			return true
		}
	}
	return false
}

// afterFunc reports whether the timer t was made by time.AfterFunc: resetting it schedules its
// function again (a heartbeat's watchdog) and returns at once; nothing waits on it.
func afterFunc(t ssa.Value) bool {
	found := false
	walked := make(map[*ssa.Store]bool) // each store once: p.t = wrap(p.t) would go round
	var visit func(x ssa.Value) bool
	visit = func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			found = found || id.Pkg == "time" && id.Recv == "" && id.Name == "AfterFunc"
			return false
		case *ssa.FreeVar:
			// A variable the closure captures by reference: what the closure stores into it
			// too (if t == nil { t = time.AfterFunc(d, f) } else { t.Reset(d) }).
			for _, r := range *x.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == x && !found && !walked[st] {
					walked[st] = true
					flow.Backward(st.Val, 16, visit)
				}
			}
		case *ssa.UnOp:
			// A field: what the same function stores into it (if p.timer == nil { p.timer =
			// time.AfterFunc(d, f); return }; p.timer.Reset(d)).
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && flow.FieldVar(fa) != nil {
				for _, b := range x.Parent().Blocks {
					for _, instr := range b.Instrs {
						if st, ok := instr.(*ssa.Store); ok && !found {
							if sfa, ok := st.Addr.(*ssa.FieldAddr); ok && flow.FieldVar(sfa) == flow.FieldVar(fa) && !walked[st] {
								walked[st] = true
								flow.Backward(st.Val, 16, visit)
							}
						}
					}
				}
			}
		}
		return !found
	}
	flow.Backward(t, 32, visit)
	return found
}

// wokenByEvent reports whether blocking select sel also receives, without leaving loop l,
// from a channel the package sends on or closes (q.notify <- struct{}{} when a job is queued;
// close(c.connChanged) when a connection is replaced): an event, not a timer, ends the wait.
// A case that leaves the loop (a stop signal) is not such an event.
func (st *state) wokenByEvent(sel *ssa.Select, l *loops.Loop) bool {
	for i, ss := range sel.States {
		if ss.Dir != types.RecvOnly || typeis.TimeChan(ss.Chan.Type()) || l != nil && leavesOn(sel, i, l) {
			continue
		}
		if st.signalled(ss.Chan) {
			return true
		}
	}
	return false
}

// eventWaits returns the receives of loop l's blocks (in) that wait for another goroutine's
// signal and stay in the loop, with no timer beside them: a <-ch, or a select { case
// <-ctx.Done(): return ...; case <-connChanged: } on a channel that the package sends on or
// closes (a connection replaced, work arrived). The loop goes round when that event comes: a
// wait of unknown length, not "at once". Nil outside a loop.
func (st *state) eventWaits(fn *ssa.Function, in func(*ssa.BasicBlock) bool, l *loops.Loop) []ssa.Instruction {
	if l == nil {
		return nil
	}
	var out []ssa.Instruction
	for instr, ch := range blockingReceives(fn, in, l) {
		if typeis.TimeChan(ch.Type()) || !st.signalled(ch) || slices.Contains(out, instr) {
			continue
		}
		if sel, ok := instr.(*ssa.Select); ok && slices.ContainsFunc(sel.States, func(s *ssa.SelectState) bool { return typeis.TimeChan(s.Chan.Type()) }) {
			continue // a timer's wait, which an event may cut short (channelWaits, wokenByEvent)
		}
		out = append(out, instr)
	}
	return out
}

// signalled reports whether ch is a channel kept in a struct field or package variable that
// the package sends on or closes (chanKey).
func (st *state) signalled(ch ssa.Value) bool {
	if st.sentOn == nil {
		st.sentOn = make(map[any]bool)
		mark := func(v ssa.Value) {
			if k := chanKey(v); k != nil {
				st.sentOn[k] = true
			}
		}
		for _, fn := range st.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					switch x := instr.(type) {
					case *ssa.Send:
						mark(x.Chan)
					case *ssa.Select:
						for _, ss := range x.States {
							if ss.Dir == types.SendOnly {
								mark(ss.Chan)
							}
						}
					case *ssa.Call:
						if bi, ok := x.Call.Value.(*ssa.Builtin); ok && bi.Name() == "close" && len(x.Call.Args) == 1 {
							mark(x.Call.Args[0])
						}
					}
				}
			}
		}
	}
	k := chanKey(ch)
	return k != nil && st.sentOn[k]
}

// chanKey names the channel v holds when it is kept in a struct field or a package variable
// (q.notify), so that a send and a receive in different functions agree; nil otherwise.
func chanKey(v ssa.Value) any {
	load, ok := flow.Unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	switch x := load.X.(type) {
	case *ssa.FieldAddr:
		if fv := flow.FieldVar(x); fv != nil {
			return fv
		}
	case *ssa.Global:
		return x
	}
	return nil
}

// asksUser reports whether call waits for what the user types: a function that reads the
// terminal (fmt.Scanf), or a read from os.Stdin or from a reader made on it
// (bufio.NewReader(os.Stdin).ReadString).
func asksUser(call ssa.CallInstruction) bool {
	if knowledge.ReadsTerminal(flow.Callee(call.Common())) {
		return true
	}
	stdin := func(v ssa.Value) bool {
		ld, ok := flow.Unwrap(v).(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return false
		}
		g, ok := ld.X.(*ssa.Global)
		if !ok {
			return false
		}
		obj, _ := g.Object().(*types.Var)
		return knowledge.IsStdin(obj)
	}
	recv := recvOf(call)
	if recv == nil {
		return false
	}
	if stdin(recv) {
		return true
	}
	made, ok := flow.Unwrap(recv).(*ssa.Call)
	return ok && slices.ContainsFunc(made.Call.Args, stdin)
}
