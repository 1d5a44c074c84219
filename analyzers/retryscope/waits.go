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
// one more wait the model cannot see.
func channelWaits(fn *ssa.Function, in func(*ssa.BasicBlock) bool, l *loops.Loop) (extra []Sleep, unknown int) {
	seen := make(map[*ssa.Call]bool)
	wait := func(instr ssa.Instruction, ch ssa.Value) {
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
			unknown++
		case in(maker.Block()), again, resetIn(fn, in, maker), seen[maker]:
			// sleeps counts the call that makes or resets the timer in the blocks; one
			// timer received from in several places is one wait
		default:
			seen[maker] = true
			d := maker.Call.Args[0]
			extra = append(extra, Sleep{Call: maker, Duration: d, Kind: delayKind(d, l), At: instr})
		}
	}
	for _, b := range fn.Blocks {
		if !in(b) {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW {
					wait(x, x.X)
				}
			case *ssa.Select:
				if !x.Blocking {
					continue // select { case <-deadline.C: ...; default: } never waits
				}
				for i, st := range x.States {
					if st.Dir == types.RecvOnly && !(l != nil && leavesOn(x, i, l)) {
						wait(x, st.Chan)
					}
				}
			}
		}
	}
	return extra, unknown
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
			if st.Dir != types.RecvOnly || st.Chan == ch {
				continue
			}
			if el, ok := st.Chan.Type().Underlying().(*types.Chan); ok && !typeis.TimeChan(st.Chan.Type()) && !emptyStruct(el.Elem()) && madeHere(st.Chan) {
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
			id := flow.ID(flow.Callee(c.Common()))
			if id.Pkg != "time" || id.Name != "Reset" || len(c.Common().Args) == 0 {
				continue
			}
			made := false
			flow.Backward(c.Common().Args[0], 16, func(x ssa.Value) bool {
				made = made || x == maker
				return !made
			})
			if made {
				return true
			}
		}
	}
	return false
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

// delayKind classifies a delay: jittered when a random source or a jitter function computes
// it, backoff when it grows with the attempts, unknown when an opaque call computes it, fixed
// otherwise.
func delayKind(d ssa.Value, l *loops.Loop) WaitKind {
	return delayKindIn(d, l, 0, nil)
}

// delayKind is delayKind that also follows a function kept in a field or package variable
// (time.Sleep(c.cfg.RetryWait(n))) to what the package stores there (see storedDelays).
func (st *state) delayKind(d ssa.Value, l *loops.Loop) WaitKind {
	return delayKindIn(d, l, 0, st)
}

// delayKindIn is delayKind looking depth calls deep into the package's own functions and
// literals that compute a delay (a local backoff(attempt) closure).
func delayKindIn(d ssa.Value, l *loops.Loop, depth int, st *state) WaitKind {
	random, grows, opaque := false, false, false
	note := func(k WaitKind) { // a delay the computation takes in
		switch k {
		case WaitJittered:
			random = true
		case WaitBackoff:
			grows = true
		case WaitUnknown:
			opaque = true
		}
	}
	flow.Backward(d, 128, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Call:
			if body := delayFunc(x.Common()); body != nil && depth < 2 {
				kind, fromParams := returnedDelay(body, depth+1, st)
				note(kind)
				// A delay computed from the arguments (the attempt number) changes with them.
				return kind == WaitFixed && fromParams
			}
			if _, ok := x.Call.Value.(*ssa.Builtin); ok {
				return true // min(base<<attempt, limit): the delay is one of its arguments
			}
			fn := flow.Callee(x.Common())
			if fn == nil {
				if fns := st.storedDelays(x.Call.Value); len(fns) > 0 && depth < 2 {
					// The package's own default(s) for the function value: how most users wait.
					follow := true
					for _, f := range fns {
						kind, fromParams := returnedDelay(f, depth+1, st)
						note(kind)
						follow = follow && kind == WaitFixed && fromParams
					}
					return follow
				}
				opaque = true
				return true
			}
			id := flow.ID(fn)
			switch {
			case id.Pkg == "math/rand" || id.Pkg == "math/rand/v2" || id.Pkg == "crypto/rand":
				random = true
			case id.Pkg == "math" && id.Name == "Pow":
				grows = true
			case knowledge.ParsesText(fn), id.Pkg == "time" && id.Recv == "" && id.Name == "Until",
				id.Pkg == "time" && id.Recv == "Time" && id.Name == "Sub":
				// Read from text (a server's Retry-After), or the time left until an instant
				// kept somewhere (a rate-limit bucket's reset): the data decides.
				opaque = true
			case id.Pkg == "time" || id.Pkg == "math":
			default:
				f := st.delayOf(fn)
				if f == nil {
					opaque = true
					return true
				}
				note(f.Kind)
				// A fixed delay computed from the arguments (the attempt number) changes with them.
				return f.Kind == WaitFixed && f.FromParams
			}
		case *ssa.BinOp:
			if x.Op == token.SHL {
				grows = true
			}
			if l != nil && (x.Op == token.MUL || x.Op == token.ADD) && (loopCarried(x.X, l) || loopCarried(x.Y, l)) {
				grows = true
			}
			if x.Op == token.MUL && (recurs(x.X, x) || recurs(x.Y, x)) {
				grows = true // delay *= 2 in a helper's own loop: it doubles with the attempts
			}
		case *ssa.Phi:
			if l != nil && x.Block() == l.Header {
				grows = true // a delay carried from one attempt to the next changes
			}
		case *ssa.Alloc:
			if decodedInto(x) {
				opaque = true // a field of what a decoder filled (a 429's JSON "retry_after")
			}
		case *ssa.UnOp:
			if x.Op == token.MUL && scaledInPlace(x) {
				grows = true // *b <<= 1 after each wait: a backoff kept in memory
			}
			if x.Op == token.MUL && st.parsedField(x) {
				opaque = true // a field the package fills from what it reads (a server's "retry:")
			}
		}
		return true
	})
	switch {
	case random:
		return WaitJittered
	case opaque:
		return WaitUnknown
	case grows:
		return WaitBackoff
	}
	return WaitFixed
}

// decodedInto reports whether the address of the local a is handed to a call as an interface
// (json.Unmarshal(body, &rl), dec.Decode(&v)): a decoder fills it from data. errors.As is no
// decoder.
func decodedInto(a *ssa.Alloc) bool {
	refs := a.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		mi, ok := r.(*ssa.MakeInterface)
		if !ok || mi.Referrers() == nil {
			continue
		}
		for _, rr := range *mi.Referrers() {
			// errors.As fills the target with an error of the program's own, not with data.
			if c, ok := rr.(ssa.CallInstruction); ok && flow.ID(flow.Callee(c.Common())).Pkg != "errors" {
				return true
			}
		}
	}
	return false
}

// scaledInPlace reports whether the function that loads ld stores back into the same place a
// value that grows from what is there (*b <<= 1, s.delay *= 2, d.next = d.next * 2): a delay
// that doubles each time it is used, kept in a receiver or a field.
func scaledInPlace(ld *ssa.UnOp) bool {
	place := flow.PlaceOf(ld.X)
	for _, b := range ld.Parent().Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || flow.PlaceOf(st.Addr) != place {
				continue
			}
			if op, ok := flow.Unwrap(st.Val).(*ssa.BinOp); ok && (op.Op == token.SHL || op.Op == token.MUL) {
				for _, side := range []ssa.Value{op.X, op.Y} {
					if src, ok := flow.Unwrap(side).(*ssa.UnOp); ok && src.Op == token.MUL && flow.PlaceOf(src.X) == place {
						return true
					}
				}
			}
		}
	}
	return false
}

// recurs reports whether v is a phi that x, computed from it, flows back into: a value that
// a loop multiplies round after round.
func recurs(v ssa.Value, x ssa.Value) bool {
	phi, ok := v.(*ssa.Phi)
	if !ok {
		return false
	}
	for _, e := range phi.Edges {
		if e == x {
			return true
		}
	}
	return false
}

// delayFunc returns the body of a function of this package, or a function literal, that a
// call computing a delay runs (its first result is a time.Duration, as in (time.Duration,
// error), or a number that the delay is computed from); nil for other calls and for methods called through interfaces.
func delayFunc(c *ssa.CallCommon) *ssa.Function {
	if c.IsInvoke() {
		return nil
	}
	var fn *ssa.Function
	flow.Backward(c.Value, 16, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Function:
			fn = x
		case *ssa.MakeClosure:
			fn, _ = x.Fn.(*ssa.Function)
		}
		return fn == nil
	})
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() == 0 {
		return nil
	}
	if r := fn.Signature.Results().At(0).Type(); !typeis.Duration(r) && !numeric(r) {
		return nil
	}
	return fn
}

// numeric reports whether t is an integer or floating-point type: a factor of a delay
// (RetryWait * pow(1.5, attempt)) that a helper computes.
func numeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat) != 0
}

// returnedDelay classifies the durations fn returns as delayKind does, all paths together
// (as a phi of them would be): jittered if one is, else unknown, else backoff, else fixed. It
// also says whether they are computed from fn's parameters other than its receiver.
func returnedDelay(fn *ssa.Function, depth int, st *state) (kind WaitKind, fromParams bool) {
	kind = WaitFixed
	for ret := range flow.Returns(fn) {
		if len(ret.Results) == 0 {
			continue
		}
		switch k := delayKindIn(ret.Results[0], nil, depth, st); {
		case k == WaitJittered:
			return k, false
		case k == WaitUnknown, k == WaitBackoff && kind != WaitUnknown:
			kind = k
		}
		flow.Backward(ret.Results[0], 64, func(x ssa.Value) bool {
			p, isParam := x.(*ssa.Parameter)
			fromParams = fromParams || isParam && (fn.Signature.Recv() == nil || p != fn.Params[0])
			return !fromParams
		})
	}
	return kind, fromParams
}

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
	}
	if len(ss) > 0 && !slices.ContainsFunc(ss, func(s Sleep) bool { return s.Unset == "" }) {
		unset, ss = ss[0].Unset, nil
	}
	extra, unknown := channelWaits(fn, in, l)
	ss = append(ss, extra...)
	for _, c := range calls {
		if _, started := c.(*ssa.Go); started || sleepDuration(c) != nil || c.Common().StaticCallee() == fn {
			continue // a goroutine's; counted above; the recursive call of a retrying function
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
			s.Kind = delayKind(s.Duration, l)
		case l != nil && slices.ContainsFunc(args, func(a ssa.Value) bool { return changesInLoop(a, l) }):
		case st.rem.Reach(c) == remote.ReachLocal:
		case betweenAttempts(c, attempt, l):
			// Called only once the attempt went wrong, on the way to the next one (a reconnect
			// that waits as the server asked, then dials): its wait lies between the attempts.
		default:
			continue // the attempt's own waiting
		}
		ss = append(ss, s)
	}
	w := Wait{Kind: combineWaits(ss, unknown), Sleeps: ss}
	if w.Kind == WaitNone {
		w.Unset = unset
	}
	return w
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
	callee := call.Common().StaticCallee()
	if callee != nil && callee.Pkg == nil && callee.Origin() != nil {
		callee = callee.Origin()
	}
	return callee != nil && callee.Pkg == st.ssaPkg
}

// calleeWaits returns how the function that call calls waits, or nil when it does not (or
// the model cannot see it: a function of another package without a waitsFact, an interface
// method, a function value).
func (st *state) calleeWaits(call ssa.CallInstruction) *waitsFact {
	callee := call.Common().StaticCallee()
	if callee != nil && callee.Pkg == nil && callee.Origin() != nil {
		callee = callee.Origin() // a generic function's instance: its body is the origin's
	}
	if callee != nil && callee.Pkg == st.ssaPkg && len(callee.Blocks) > 0 {
		return st.funcWaits(callee, 0)
	}
	if call.Common().StaticCallee() == nil && !call.Common().IsInvoke() {
		if w := st.storedWaits(call.Common().Value); w != nil {
			return w
		}
		if w := st.madeWaiter(call.Common().Value); w != nil {
			return w
		}
	}
	fn := flow.Callee(call.Common())
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == st.pass.Pkg {
		return nil
	}
	var f waitsFact
	if st.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// madeWaiter says how a function value waits when it is the result of a call of a function
// that returns a waiter (wait := strategy.Backoff(backoff.Linear(d)); wait(attempt)): of the
// package, by its returns, or of another, by its waiterFact.
func (st *state) madeWaiter(callee ssa.Value) *waitsFact {
	var w *waitsFact
	flow.Backward(callee, 16, func(x ssa.Value) bool {
		c, ok := x.(*ssa.Call)
		if !ok || w != nil {
			return w == nil
		}
		if f := c.Common().StaticCallee(); f != nil && f.Pkg == st.ssaPkg && len(f.Blocks) > 0 {
			w = st.returnedWaiter(f)
		} else if fn := flow.Callee(c.Common()); fn != nil && fn.Pkg() != nil && fn.Pkg() != st.pass.Pkg {
			var f waiterFact
			if st.pass.ImportObjectFact(fn, &f) {
				w = &waitsFact{Kind: f.Kind, Param: -1}
			}
		}
		return false
	})
	return w
}

// storedWaits says how the function kept in a package variable or struct field that callee
// loads waits, when the package's production code stores only functions of its own that wait
// there (var waitFunc = wait, which its tests override): nil otherwise.
func (st *state) storedWaits(callee ssa.Value) *waitsFact {
	var w *waitsFact
	for _, v := range st.stores.Loaded(callee) {
		if testcode.Made(st.pass, v) {
			continue // a test's stand-in, or its restoring the original
		}
		f, ok := v.(*ssa.Function)
		if !ok || f.Pkg != st.ssaPkg || len(f.Blocks) == 0 {
			return nil
		}
		if w = st.funcWaits(f, 0); w == nil {
			return nil
		}
	}
	return w
}

// funcWaits says how fn, a function of this package, waits: it sleeps, waits on a timer
// channel, or calls a function that does (depth calls deep). Param is the index among the
// call's arguments (receiver included) of the parameter its waits take their duration from,
// when they all do; -1 otherwise.
func (st *state) funcWaits(fn *ssa.Function, depth int) *waitsFact {
	if w, ok := st.waitMemo[fn]; ok {
		return w
	}
	st.waitMemo[fn] = nil // recursion waits nothing more
	calls := slices.Collect(flow.Calls(fn))
	ss := sleeps(calls, nil)
	for i := range ss {
		ss[i].Kind = st.delayKind(ss[i].Duration, nil) // with what the package stores in fields
	}
	extra, unknown := channelWaits(fn, func(*ssa.BasicBlock) bool { return true }, nil)
	ss = append(ss, extra...)
	if depth < 2 {
		for _, c := range calls {
			if _, started := c.(*ssa.Go); started || sleepDuration(c) != nil {
				continue // a goroutine's wait (go func() { time.Sleep(d); old.Close() }()) delays nobody
			}
			if callee := c.Common().StaticCallee(); callee != nil && callee.Pkg == st.ssaPkg && len(callee.Blocks) > 0 {
				if w := st.funcWaits(callee, depth+1); w != nil {
					s := Sleep{Call: c, Kind: w.Kind}
					if args := c.Common().Args; w.Param >= 0 && w.Param < len(args) {
						s.Duration = args[w.Param] // a helper of a helper: the duration passed on
						s.Kind = st.delayKind(s.Duration, nil)
					}
					ss = append(ss, s)
				}
			}
		}
	}
	if len(ss) == 0 && unknown == 0 {
		return nil
	}
	w := &waitsFact{Kind: combineWaits(ss, unknown), Param: -1}
	for i, s := range ss {
		p := durationParam(fn, s.Duration)
		if p < 0 || i > 0 && p != w.Param {
			w.Param = -1
			break
		}
		w.Param = p
	}
	st.waitMemo[fn] = w
	return w
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
	return b != nil && ab != nil && b != ab && b.Parent() == ab.Parent() && ab.Dominates(b) && l.CanRepeat(b)
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
				if st, ok := r.(*ssa.Store); ok && st.Addr == x && !found {
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
							if sfa, ok := st.Addr.(*ssa.FieldAddr); ok && flow.FieldVar(sfa) == flow.FieldVar(fa) {
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
