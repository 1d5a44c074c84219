package retryscope

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

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
