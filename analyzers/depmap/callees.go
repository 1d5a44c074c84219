package depmap

import (
	_ "embed"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// callees returns the functions call runs: its static callee, the methods of the package's
// types that implement the package's interface it calls, and the functions and closures of
// the package handed to it as arguments (a retry helper's callback), except HTTP handlers,
// which a call registers to run later (see entries).
func (m *mapper) callees(call ssa.CallInstruction) []*ssa.Function {
	if fns, ok := m.calleesOf[call]; ok {
		return fns
	}
	fns := m.calleesFor(call)
	m.calleesOf[call] = fns
	return fns
}

func (m *mapper) calleesFor(call ssa.CallInstruction) []*ssa.Function {
	var out []*ssa.Function
	if fns := m.functions(call.Common().Value); fns != nil {
		out = append(out, fns...)
	} else if fn := call.Common().StaticCallee(); fn != nil {
		out = append(out, m.source(fn))
	}
	out = append(out, m.impls.Of(call.Common())...)
	for _, a := range call.Common().Args {
		for _, fn := range m.functions(a) {
			if fn.Pkg != nil && fn.Pkg.Pkg == m.pass.Pkg && !typeis.HTTPHandler(fn.Signature) {
				out = append(out, fn)
			}
		}
	}
	return out
}

// functions returns the functions v is, through conversions: a function, a closure, a method
// value (the method itself), or what the package stores in the field or variable v loads, when
// that is a few functions (a callback kept in an options struct and called in the loop that
// sets it); nil otherwise.
func (m *mapper) functions(v ssa.Value) []*ssa.Function {
	if fn := m.function(v); fn != nil {
		return []*ssa.Function{fn}
	}
	stored := m.stores.Loaded(flow.Unwrap(v))
	if len(stored) == 0 || len(stored) > 3 {
		return nil
	}
	var out []*ssa.Function
	for _, x := range stored {
		fn := m.function(x)
		if fn == nil {
			return nil
		}
		out = append(out, fn)
	}
	return out
}

// function returns the function v is, through conversions: a function, a closure, a method
// value (the method itself); nil otherwise.
func (m *mapper) function(v ssa.Value) *ssa.Function {
	switch x := flow.Unwrap(v).(type) {
	case *ssa.Function:
		return m.source(x)
	case *ssa.MakeClosure:
		if fn, ok := x.Fn.(*ssa.Function); ok {
			return m.source(fn)
		}
	}
	return nil
}

// source returns the function whose code fn runs: the generic function for an instance, the
// method for a method value's or a pointer's wrapper.
func (m *mapper) source(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj, ok := fn.Object().(*types.Func); ok && fn.Synthetic != "" {
		if f := m.prog.FuncValue(obj); f != nil {
			return f
		}
	}
	return fn
}
