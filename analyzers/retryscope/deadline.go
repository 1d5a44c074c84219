package retryscope

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// observesDeadline says whether calls check a context, pass a context on to a fallible call
// (one that returns an error; a logger does not count), or check the time. A context made
// from context.Background, TODO or WithoutCancel, with no deadline or cancellation added,
// bounds nothing.
func observesDeadline(calls []ssa.CallInstruction) DeadlineKind {
	return observesDeadlineIn(calls, 0)
}

// observesDeadlineIn is observesDeadline looking depth function literals deep: a literal
// handed to one of the calls (a circuit breaker's Do(name, func() error { ... })) runs as
// part of it.
func observesDeadlineIn(calls []ssa.CallInstruction, depth int) DeadlineKind {
	kind := DeadlineNone
	for _, call := range calls {
		c := call.Common()
		for _, a := range c.Args {
			if mc, ok := flow.Unwrap(a).(*ssa.MakeClosure); ok && depth < 2 {
				if fn, ok := mc.Fn.(*ssa.Function); ok {
					switch k := observesDeadlineIn(slices.Collect(flow.Calls(fn)), depth+1); k {
					case DeadlineContext:
						return k
					case DeadlineElapsed:
						kind = k
					}
				}
			}
		}
		id := flow.ID(flow.Callee(c))
		if id.Pkg == "time" && (id.Recv == "" && oneOf(id.Name, "Since", "Until") ||
			id.Recv == "Time" && oneOf(id.Name, "After", "Before", "Compare", "Sub")) {
			kind = DeadlineElapsed
		}
		if id.Pkg == "context" && id.Recv == "Context" && oneOf(id.Name, "Done", "Err", "Deadline") && bounded(c.Value) {
			return DeadlineContext
		}
		if watchesContext(c) {
			return DeadlineContext // sleep(ctx, d) that gives up when ctx is done
		}
		if carriesCtx(c) {
			return DeadlineContext // options.WithContext(ctx) handed on, b := backoff.New(ctx, cfg); b.Wait()
		}
		if !typeis.ReturnsError(c.Signature()) {
			continue
		}
		for _, a := range c.Args {
			if typeis.Context(a.Type()) && bounded(a) || typeis.Named(a.Type(), "net/http", "Request") && carriesContext(a) {
				return DeadlineContext
			}
		}
	}
	return kind
}

// carriesCtx reports whether a receiver or argument of c is a value the function made by a
// call it handed a context that may bound it: request options built with
// options.WithContext(ctx) and passed to the call, a backoff made by backoff.New(ctx, cfg)
// whose Ongoing and Wait drive the loop. The context travels with the value.
func carriesCtx(c *ssa.CallCommon) bool {
	args := c.Args
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, args...)
	}
	for _, a := range args {
		if typeis.Context(a.Type()) {
			continue
		}
		maker := flow.Unwrap(a)
		if ex, ok := maker.(*ssa.Extract); ok {
			maker = ex.Tuple
		}
		mc, ok := maker.(*ssa.Call)
		if !ok {
			continue
		}
		for _, ma := range mc.Call.Args {
			if typeis.Context(ma.Type()) && bounded(ma) {
				return true
			}
		}
	}
	return false
}

// watchesContext reports whether c hands a context that may bound it to a function of the
// package (or a literal) that checks that context itself (its Done, Err or Deadline): a wait
// helper that returns when the context is done observes it, whatever it returns.
func watchesContext(c *ssa.CallCommon) bool {
	callee := c.StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 {
		return false
	}
	for i, a := range c.Args {
		if !typeis.Context(a.Type()) || !bounded(a) || i >= len(callee.Params) {
			continue
		}
		param := callee.Params[i]
		for call := range flow.Calls(callee) {
			id := flow.ID(flow.Callee(call.Common()))
			if id.Pkg == "context" && id.Recv == "Context" && oneOf(id.Name, "Done", "Err", "Deadline") && flow.SameValue(call.Common().Value, param) {
				return true
			}
		}
	}
	return false
}

// carriesContext reports whether an *http.Request carries a context that may bound it: one
// it was made with (NewRequestWithContext, WithContext, Clone), or the caller's (a request
// received as a parameter, or copied from one); not one made by http.NewRequest.
func carriesContext(req ssa.Value) bool {
	carries := false
	flow.Backward(req, 64, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Parameter:
			carries = carries || typeis.Named(x.Type(), "net/http", "Request")
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			switch {
			case id.Pkg == "net/http" && id.Recv == "" && id.Name == "NewRequestWithContext",
				id.Pkg == "net/http" && id.Recv == "Request" && (id.Name == "WithContext" || id.Name == "Clone"):
				for _, a := range x.Call.Args {
					if typeis.Context(a.Type()) {
						carries = carries || bounded(a)
					}
				}
				return false
			case id.Pkg == "net/http" && id.Name == "NewRequest":
				return false
			}
		}
		return !carries
	})
	return carries
}

// bounded reports whether a context may carry a deadline or cancellation: anything but one
// built only from context.Background, TODO and WithoutCancel (and values added to them).
func bounded(ctx ssa.Value) bool {
	unbounded, other := false, false
	flow.Backward(ctx, 64, func(x ssa.Value) bool {
		call, ok := x.(*ssa.Call)
		if !ok {
			if _, isParam := x.(*ssa.Parameter); isParam {
				other = true
			}
			return true
		}
		id := flow.ID(flow.Callee(call.Common()))
		switch {
		case id.Pkg == "context" && oneOf(id.Name, "Background", "TODO", "WithoutCancel"):
			unbounded = true
			return false
		case id.Pkg == "context" && id.Name == "WithValue":
			return true
		}
		other = true
		return false
	})
	return other || !unbounded
}

// selectsOnSignal reports whether the code of fn in the blocks (in) selects on a signal
// channel, a channel of struct{} (a stop, quit or done channel, or a context's Done): the
// caller can stop it as it can cancel a context.
func selectsOnSignal(fn *ssa.Function, in func(*ssa.BasicBlock) bool) bool {
	for _, b := range fn.Blocks {
		if !in(b) {
			continue
		}
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, st := range sel.States {
				if c, ok := flow.Unwrap(st.Chan).(*ssa.Call); ok && flow.ID(flow.Callee(c.Common())).Pkg == "context" {
					continue // a context's Done: observesDeadline judges the context
				}
				if ch, ok := st.Chan.Type().Underlying().(*types.Chan); ok && st.Dir == types.RecvOnly {
					if s, ok := ch.Elem().Underlying().(*types.Struct); ok && s.NumFields() == 0 {
						return true
					}
				}
			}
		}
	}
	return false
}
