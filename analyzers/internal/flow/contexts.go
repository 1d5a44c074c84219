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

// ContextParam returns the first context.Context parameter of fn, or nil.
func ContextParam(fn *ssa.Function) *ssa.Parameter {
	for _, p := range fn.Params {
		if typeis.Context(p.Type()) {
			return p
		}
	}
	return nil
}
