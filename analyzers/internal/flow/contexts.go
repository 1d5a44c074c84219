package flow

import (
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// ContextInScope returns the named context.Context parameter of fn or of the functions it is
// a closure of, the innermost first; nil when none is in scope.
func ContextInScope(fn *ssa.Function) *ssa.Parameter {
	for ; fn != nil; fn = fn.Parent() {
		if p := ContextParam(fn); p != nil && p.Name() != "_" && p.Name() != "" {
			return p
		}
	}
	return nil
}

// RequestParam returns the first named *http.Request parameter of fn, or nil: its Context()
// is the caller's (a RoundTrip's carries the client's Timeout as a deadline).
func RequestParam(fn *ssa.Function) *ssa.Parameter {
	for _, p := range fn.Params {
		if typeis.Request(p.Type()) && p.Name() != "_" && p.Name() != "" {
			return p
		}
	}
	return nil
}

// ContextParam returns the first context.Context parameter of fn, or nil.
func ContextParam(fn *ssa.Function) *ssa.Parameter {
	for _, p := range fn.Params {
		if typeis.Context(p.Type()) {
			return p
		}
	}
	return nil
}

// FromContextValue returns the type assertion v is (either form) when it asserts the result
// of a context.Context's Value method: a value taken out of a context, which whoever made the
// context put there (the caller's, not the function's). Nil otherwise.
func FromContextValue(v ssa.Value) *ssa.TypeAssert {
	if e, ok := v.(*ssa.Extract); ok && e.Index == 0 {
		v = e.Tuple
	}
	ta, ok := v.(*ssa.TypeAssert)
	if !ok {
		return nil
	}
	call, ok := Unwrap(ta.X).(*ssa.Call)
	if !ok || call.Call.Method == nil || call.Call.Method.Name() != "Value" || !typeis.Context(call.Call.Value.Type()) {
		return nil
	}
	return ta
}
