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
)

// delayKind classifies a delay: jittered when a random source or a jitter function computes
// it, backoff when it grows with the attempts, unknown when an opaque call computes it, fixed
// otherwise.
func delayKind(d ssa.Value, l *loops.Loop) WaitKind {
	return delayIn(d, l, 0, nil).kind
}

// delayKind is delayKind that also follows a function kept in a field or package variable
// (time.Sleep(c.cfg.RetryWait(n))) to what the package stores there (see storedDelays).
func (st *state) delayKind(d ssa.Value, l *loops.Loop) WaitKind {
	return delayIn(d, l, 0, st).kind
}

// A delay is how a computed delay varies. When its only random draw is made under a test of a
// bool field of the receiver (if b.Jitter { d = rand... }: jpillora/backoff, off by default),
// kind is WaitJittered, switchOn is that field and plain the kind while it is false.
type delay struct {
	kind     WaitKind
	switchOn *types.Var
	plain    WaitKind
	// told: unknown only because the answer says how long to wait (a Retry-After header
	// parsed, a decoded "retry_after", the time until a reset it names).
	told bool
	// answer: the answer's word is among the durations, told or merged with a fallback.
	answer bool
}

// delayIn classifies d as delayKind does, looking depth calls deep into the package's own
// functions and literals that compute a delay (a local backoff(attempt) closure).
func delayIn(d ssa.Value, l *loops.Loop, depth int, st *state) delay {
	random, grows, opaque, told, errTold, merged := false, false, false, false, false, false
	answer := false            // a helper's durations include the answer's word
	carried := false           // the only growth seen: a value carried round the loop
	var switched *types.Var    // the receiver's field the random draws seen so far depend on
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
	noteSwitch := func(f *types.Var, plain WaitKind) { // a random draw only while f is set
		if switched != nil && switched != f {
			random = true
		}
		switched = f
		note(plain)
	}
	noteDelay := func(r delay) {
		answer = answer || r.answer
		if r.told {
			told = true // the helper returns the answer's word: a fallback beside it still counts
			return
		}
		if r.switchOn != nil {
			noteSwitch(r.switchOn, r.plain)
		} else {
			note(r.kind)
		}
	}
	flow.Backward(d, 128, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Call:
			if body := delayFunc(x.Common()); body != nil && depth < 2 {
				r, fromParams := returnedDelay(body, depth+1, st)
				if r.switchOn != nil && !passesReceiver(x) {
					r = delay{kind: WaitJittered} // the switch is another value's
				}
				noteDelay(r)
				// A delay computed from the arguments (the attempt number) changes with them.
				return r.kind == WaitFixed && fromParams
			}
			if _, ok := x.Call.Value.(*ssa.Builtin); ok {
				return true // min(base<<attempt, limit): the delay is one of its arguments
			}
			if fns := st.implementedDelays(x.Common()); len(fns) > 0 && depth < 2 {
				// d, err := c.Syncer.OnFailedSync(res, err): an interface of the package whose
				// implementations there (the default the package installs among them) say.
				follow := true
				for _, f := range fns {
					r, fromParams := returnedDelay(f, depth+1, st)
					if r.switchOn != nil && len(fns) > 1 {
						r = delay{kind: WaitJittered}
					}
					noteDelay(r)
					follow = follow && r.kind == WaitFixed && fromParams
				}
				return follow
			}
			fn := flow.Callee(x.Common())
			if fn == nil {
				if fns := st.storedDelays(x.Call.Value); len(fns) > 0 && depth < 2 {
					// The package's own default(s) for the function value: how most users wait.
					follow := true
					for _, f := range fns {
						r, fromParams := returnedDelay(f, depth+1, st)
						if r.switchOn != nil {
							r = delay{kind: WaitJittered} // a function value has no receiver of ours
						}
						note(r.kind)
						follow = follow && r.kind == WaitFixed && fromParams
					}
					return follow
				}
				opaque = true
				return true
			}
			id := flow.ID(fn)
			switch {
			case id.Pkg == "math/rand" || id.Pkg == "math/rand/v2" || id.Pkg == "crypto/rand":
				if f := jitterSwitch(x); f != nil {
					noteSwitch(f, WaitFixed)
				} else {
					random = true
				}
			case id.Pkg == "math" && id.Name == "Pow":
				grows = true
			case knowledge.ParsesText(fn), id.Pkg == "time" && id.Recv == "" && id.Name == "Until",
				id.Pkg == "time" && id.Recv == "Time" && id.Name == "Sub", id.Pkg == "net/http" && id.Recv == "Header":
				// Read from text or a header (a server's Retry-After), or the time left until
				// an instant kept somewhere (a rate-limit bucket's reset): the data decides.
				told = true
			case id.Pkg == "time" || id.Pkg == "math":
			default:
				f := st.delayOf(fn)
				if f == nil {
					opaque = true
					return true
				}
				if f.JitterField != "" && st != nil && !st.mayJitter(x, f) {
					note(f.Plain) // the library jitters only when asked, and nobody here asks
				} else {
					note(f.Kind)
				}
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
			if x.Op == token.MUL && (feedsBack(x.X, x) || feedsBack(x.Y, x)) {
				// delay *= 2 in a helper's own loop, or delay = Duration(math.Ceil(float64(delay)
				// * factor)): it grows with the attempts
				grows = true
			}
		case *ssa.Phi:
			if l != nil && x.Block() == l.Header {
				carried = true // a delay carried from one attempt to the next changes
			}
			merged = true
		case *ssa.Alloc:
			if decodedInto(x) {
				told = true // a field of what a decoder filled (a 429's JSON "retry_after")
			}
			if st != nil && st.res.retryAfterType(x.Type()) {
				told = true // errors.As(err, &ra): an error the package makes from a Retry-After header
			}
		case *ssa.FieldAddr:
			if carriesWait(x.X.Type()) {
				errTold = true // rateLimit.RetryAfter: an error that says how long to wait
			}
		case *ssa.Field:
			if carriesWait(x.X.Type()) {
				errTold = true // httpErr.RetryAfterMs, of an error held by value
			}
			return !settingOf(x, x.X, l)
		case *ssa.UnOp:
			if x.Op == token.MUL && scaledInPlace(x) {
				grows = true // *b <<= 1 after each wait: a backoff kept in memory
			}
			if x.Op == token.MUL && st.parsedField(x) {
				told = true // a field the package fills from what it reads (a server's "retry:")
			}
			if _, fa := flow.FieldLoad(x); fa != nil && settingOf(x, fa.X, l) {
				return false
			}
		}
		return true
	})
	// A wait an error names, merged with no other delay: the failure's word (a delay that
	// doubles, or a second, otherwise is what most failures get).
	answer = answer || told || errTold
	told = told || errTold && !grows && !carried && !merged
	plain := WaitFixed
	switch {
	case opaque || told && !grows:
		// A wait the answer names, merged with a delay computed to grow with the attempts
		// (a power, a shift, a product), is that backoff for the failures that name none
		// (5xx, transport errors): judged by it. A value only carried round the loop (the
		// instant of the last try) is no such computation.
		plain = WaitUnknown
	case grows || carried:
		plain = WaitBackoff
	}
	switch {
	case random:
		return delay{kind: WaitJittered, answer: answer}
	case switched != nil:
		return delay{kind: WaitJittered, switchOn: switched, plain: plain, answer: answer}
	}
	return delay{kind: plain, told: told && !opaque && !grows, answer: answer}
}

// Told reports whether the duration of sl is, on some failures, what the answer says to
// wait (a Retry-After, an error's retry_after), merged with a delay of the program's own. Full
// jitter on the whole would wait less than the server asked: the jitter belongs in the
// program's part.
func (sl Sleep) Told() bool {
	return sl.Duration != nil && delayIn(sl.Duration, nil, 0, nil).answer
}

// carriesWait reports whether t, the type of a struct or a pointer to one, is an error: a
// duration read from its fields is what the failure itself says to wait (a rate-limit error's
// RetryAfter, filled from the server's answer).
func carriesWait(t types.Type) bool {
	if typeis.ErrorLike(t) {
		return true
	}
	return typeis.ErrorLike(types.NewPointer(t))
}

// jitterSwitch returns the bool field of its function's receiver under whose test the random
// draw call is made (if b.Jitter { durf = rand.Float64()*... }), or nil.
func jitterSwitch(call *ssa.Call) *types.Var {
	fn := call.Parent()
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return nil
	}
	for _, b := range fn.Blocks {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		ld, ok := cond.Cond.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		if !ok || fa.X != fn.Params[0] {
			continue
		}
		if on := b.Succs[0]; len(on.Preds) == 1 && on.Dominates(call.Block()) {
			return flow.FieldVar(fa)
		}
	}
	return nil
}

// passesReceiver reports whether call, a method call of the package's own, runs on the
// receiver of the function that makes it (d := b.ForAttempt(n) in b's Duration).
func passesReceiver(call *ssa.Call) bool {
	fn := call.Parent()
	if call.Call.IsInvoke() || call.Call.Signature().Recv() == nil || len(call.Call.Args) == 0 ||
		fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return false
	}
	return flow.Unwrap(call.Call.Args[0]) == fn.Params[0]
}

// mayJitter reports whether the receiver of call, a method of another package whose delay is
// jittered only under the field f.JitterField, may have that field set: unless it is a value
// the function allocates, does not set that field in (or sets false), and hands only to that
// package's methods as their receiver (b := &backoff.Backoff{Max: max}; b.Reset(); b.Duration()).
func (st *state) mayJitter(call *ssa.Call, f *delayFact) bool {
	if len(call.Call.Args) == 0 {
		return true
	}
	return st.mayJitterValue(flow.Unwrap(call.Call.Args[0]), f, nil, 0)
}

// mayJitterValue is mayJitter for the value v handed as the receiver. A parameter of an
// unexported function of the package is what its callers hand it (h := &backoff.Backoff{...};
// c.reconnect(h)): each caller's value is judged, and one that hands it to that function is
// not handing it on (via).
func (st *state) mayJitterValue(v ssa.Value, f *delayFact, via *ssa.Function, depth int) bool {
	if depth > 2 {
		return true
	}
	if p, ok := v.(*ssa.Parameter); ok {
		fn := p.Parent()
		i := slices.Index(fn.Params, p)
		if i < 0 || fn.Pkg != st.ssaPkg || fn.Object() == nil || fn.Object().Exported() || fn.Parent() != nil {
			return true // from the package's users, or a closure's: not in view
		}
		if st.usedAsValue(fn) || st.mayJitterUses(p, f, nil) {
			return true // called where the index does not see, or set in the function itself
		}
		calls := st.stores.Calls[fn]
		for _, c := range calls {
			cc := c.Common()
			if _, ok := c.(*ssa.Call); !ok || len(cc.Args) <= i {
				return true
			}
			if st.mayJitterValue(flow.Unwrap(cc.Args[i]), f, fn, depth+1) {
				return true
			}
		}
		return len(calls) == 0
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok || alloc.Referrers() == nil {
		return true // made elsewhere: its settings are not in view
	}
	return st.mayJitterUses(alloc, f, via)
}

// usedAsValue reports whether the package uses fn other than by calling it: as a value, a
// method value or a method expression.
func (st *state) usedAsValue(fn *ssa.Function) bool {
	if st.stores.AsValue[fn] {
		return true
	}
	for g := range st.stores.AsValue {
		if g != fn && g.Synthetic != "" && g.Object() == fn.Object() {
			return true
		}
	}
	return false
}

// mayJitterUses is mayJitterValue's reading of the uses of v, a value allocated or a parameter.
func (st *state) mayJitterUses(v ssa.Value, f *delayFact, via *ssa.Function) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if fv := flow.FieldVar(r); fv != nil && fv.Name() == f.JitterField && setTrue(r) {
				return true
			}
		case ssa.CallInstruction:
			c := r.Common()
			if via != nil && c.StaticCallee() == via {
				continue // the call that hands it to the function judged
			}
			id := flow.ID(flow.Callee(c))
			if c.IsInvoke() || id.Recv == "" || id.Pkg != f.JitterPkg || len(c.Args) == 0 || c.Args[0] != v || slices.Contains(c.Args[1:], v) {
				return true
			}
		default:
			return true // stored, converted or handed on: set elsewhere, maybe
		}
	}
	return false
}

// setTrue reports whether anything but the constant false is stored at fa.
func setTrue(fa *ssa.FieldAddr) bool {
	return slices.ContainsFunc(flow.Stored(fa), func(v ssa.Value) bool {
		b, ok := flow.BoolConst(v)
		return !ok || b
	})
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
// value that grows from what is there (*b <<= 1, s.delay *= 2, d.next = d.next * 2, b.n++,
// s.delay += step): a delay kept in a receiver or a field that grows each time it is used,
// doubling or by a step, or one computed from a count of the times it was used (initial *
// (n+1)). Both are a backoff without jitter when nothing random enters.
func scaledInPlace(ld *ssa.UnOp) bool {
	place := flow.PlaceOf(ld.X)
	for _, b := range ld.Parent().Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || flow.PlaceOf(st.Addr) != place {
				continue
			}
			if op, ok := flow.Unwrap(st.Val).(*ssa.BinOp); ok && (op.Op == token.SHL || op.Op == token.MUL || op.Op == token.ADD) {
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

// feedsBack reports whether v, an operand of the product x, is a value that a loop carries
// and that x itself gives its next value, through conversions and rounding (delay =
// time.Duration(math.Ceil(float64(delay) * factor))): the product grows round that loop.
func feedsBack(v, x ssa.Value) bool {
	through := func(v ssa.Value) ssa.Value {
		for range 4 {
			v = flow.Unwrap(v)
			c, ok := v.(*ssa.Call)
			if !ok || len(c.Call.Args) != 1 {
				return v
			}
			if id := flow.ID(flow.Callee(c.Common())); id.Pkg != "math" || id.Recv != "" {
				return v
			}
			v = c.Call.Args[0] // math.Ceil, Floor, Round, Trunc
		}
		return v
	}
	phi, ok := through(v).(*ssa.Phi)
	if !ok {
		return false
	}
	return slices.ContainsFunc(phi.Edges, func(e ssa.Value) bool { return through(e) == x })
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
	r := fn.Signature.Results().At(0).Type()
	if p, ok := r.Underlying().(*types.Pointer); ok {
		r = p.Elem() // (*time.Duration, bool): a delay it fills, or nil when not to wait
	}
	if !typeis.Duration(r) && !numeric(r) {
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
// (as a phi of them would be): jittered if one is, else unknown, else backoff, else fixed; a
// random draw under the receiver's switch stays switched when every such draw is under the
// same field. It also says whether they are computed from fn's parameters other than its
// receiver.
//
// A return the answer decides (a parsed Retry-After) is left out when another return is
// computed without it, and not as a constant: that one is how the program waits when the
// server says nothing, the common case (if ra := resp.Header.Get("Retry-After"); ra != "" {
// return parse(ra) }; return base * 2^attempt backs off without jitter).
func returnedDelay(fn *ssa.Function, depth int, st *state) (r delay, fromParams bool) {
	kind := WaitFixed
	var switched *types.Var
	told, own, answer := false, false, false
	for ret := range flow.Returns(fn) {
		if len(ret.Results) == 0 {
			continue
		}
		k := delayIn(ret.Results[0], nil, depth, st)
		answer = answer || k.answer
		if k.told {
			told = true
			continue
		}
		if _, isConst := flow.IntConst(ret.Results[0]); !isConst && !flow.IsNil(ret.Results[0]) {
			own = true // (a constant is a parser's default when the text is not a number)
		}
		if k.switchOn != nil {
			if switched != nil && switched != k.switchOn {
				return delay{kind: WaitJittered}, false
			}
			switched = k.switchOn
			k.kind = k.plain
		}
		switch {
		case k.kind == WaitJittered:
			return delay{kind: WaitJittered}, false
		case k.kind == WaitUnknown, k.kind == WaitBackoff && kind != WaitUnknown:
			kind = k.kind
		}
		flow.Backward(ret.Results[0], 64, func(x ssa.Value) bool {
			p, isParam := x.(*ssa.Parameter)
			fromParams = fromParams || isParam && (fn.Signature.Recv() == nil || p != fn.Params[0])
			return !fromParams
		})
	}
	if told && !own {
		return delay{kind: WaitUnknown, told: true, answer: true}, false
	}
	if switched != nil {
		return delay{kind: WaitJittered, switchOn: switched, plain: kind, answer: answer || told}, fromParams
	}
	return delay{kind: kind, answer: answer || told}, fromParams
}

// implementedDelays returns, for a call of a method of an interface the package declares that
// returns a delay, the package's production implementations of it; nil when there are none
// or the call is another kind.
func (st *state) implementedDelays(cc *ssa.CallCommon) []*ssa.Function {
	if st == nil || !cc.IsInvoke() || cc.Signature().Results().Len() == 0 || !typeis.Duration(cc.Signature().Results().At(0).Type()) {
		return nil
	}
	var fns []*ssa.Function
	for _, fn := range st.implementers().Of(cc) {
		if len(fn.Blocks) > 0 && !testcode.At(st.pass, fn.Pos()) {
			fns = append(fns, fn)
		}
	}
	return fns
}

// settingOf reports whether field, a number read from record, is a setting of loop l: the
// record was made before the loop and nothing in the loop writes into it or hands it to a call
// (json.Decode(&w) fills it from an answer), so every round reads the same value, whatever
// function made the record (a task's RetryDelaySeconds, loaded with the task).
func settingOf(field, record ssa.Value, l *loops.Loop) bool {
	t := field.Type()
	if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
		t = p.Elem()
	}
	if b, ok := t.Underlying().(*types.Basic); l == nil || !ok || b.Info()&types.IsNumeric == 0 || carriesWait(record.Type()) {
		return false
	}
	in, ok := record.(ssa.Instruction)
	if !ok || in.Block() == nil || l.Contains(in.Block()) {
		return false
	}
	// writes reports whether the loop does anything with v (the record or one of its fields'
	// address) but read it: a store, a call it is handed to (&w in an interface), a copy.
	writes := func(v ssa.Value) bool {
		for _, r := range *v.Referrers() {
			if !l.Contains(r.Block()) {
				continue
			}
			switch r := r.(type) {
			case *ssa.FieldAddr, *ssa.DebugRef:
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return true
				}
			default:
				return true
			}
		}
		return false
	}
	if record.Referrers() == nil || writes(record) {
		return false
	}
	for _, r := range *record.Referrers() {
		if fa, ok := r.(*ssa.FieldAddr); ok && fa.Referrers() != nil && writes(fa) {
			return false
		}
	}
	return true
}
