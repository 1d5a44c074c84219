package remote

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Contracts: why a function that takes no context has none to give its remote calls (it is
// the context-free form of an API, or implements a method of another package's interface).

// setContract sets c.Contract when nothing bounds c only for want of a context (none at all,
// or context.Background or TODO) and the function c is in has none to give, by contract.
func (st *state) setContract(c *Call, method string) {
	t := c.Timeout
	if t.Status != Unbounded || t.Client != nil {
		return
	}
	switch t.Context.Kind {
	case NoContext, Background, TODO:
		c.Contract = st.contract(c.Instr.Parent(), method)
	}
}

// contract says why fn (or the function declaring the closure fn) has no context to give a
// call of method: it is the context-free form of an API, or implements a method without one
// of an interface of another package. It returns the zero Contract when fn could have one.
func (st *state) contract(fn *ssa.Function, method string) Contract {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || flow.ContextParam(fn) != nil {
		return Contract{} // it has one to give
	}
	if apiName(obj.Name()) == apiName(method) {
		return Contract{Kind: ContextFree, Name: method}
	}
	if sib := st.sibling(fn); sib != "" {
		return Contract{Kind: ContextFree, Name: sib}
	}
	return st.bound(fn)
}

// apiName reduces a function name to the operation it names: MustBegin, Beginx and Begin
// are one.
func apiName(name string) string {
	return strings.TrimSuffix(strings.TrimPrefix(name, "Must"), "x")
}

// bound says why fn, which takes no context, cannot be given one by its callers: it
// implements a method without a context of an interface of another package, or it is an
// unexported function called only from functions that are so bound. It returns the zero
// Contract otherwise.
func (st *state) bound(fn *ssa.Function) Contract {
	if why, ok := st.bounds[fn]; ok {
		return why
	}
	st.bounds[fn] = Contract{} // while in progress: recursion is not a contract
	why := st.bound1(fn)
	st.bounds[fn] = why
	return why
}

func (st *state) bound1(fn *ssa.Function) Contract {
	obj, ok := fn.Object().(*types.Func)
	if !ok || flow.ContextParam(fn) != nil {
		return Contract{}
	}
	name := obj.Name()
	sig := obj.Signature()
	if sig.Recv() != nil {
		for _, iface := range st.foreignInterfaces()[name] {
			m, _, _ := types.LookupFieldOrMethod(iface.t, false, iface.obj.Pkg(), name)
			im, ok := m.(*types.Func)
			if !ok || !types.Identical(im.Signature().Params(), sig.Params()) {
				continue
			}
			if types.Implements(sig.Recv().Type(), iface.t.Underlying().(*types.Interface)) {
				return Contract{Kind: Implements, Name: shortPkg(iface.obj.Pkg().Path()) + "." + iface.obj.Name() + "." + name}
			}
		}
	}
	if obj.Exported() {
		return Contract{}
	}
	callers, ok := st.callGraph()[fn]
	if !ok || len(callers) == 0 {
		return Contract{} // not called, or used as a value
	}
	var first Contract
	for _, caller := range callers {
		for caller.Parent() != nil {
			caller = caller.Parent()
		}
		if st.bound(caller).Kind == 0 {
			return Contract{}
		}
		if first.Kind == 0 {
			first = Contract{Kind: CalledFrom, Name: caller.Name()}
		}
	}
	return first
}

// callGraph returns the static callers of each function of the package. A function also
// used as a value has a nil entry.
func (st *state) callGraph() map[*ssa.Function][]*ssa.Function {
	if st.callers != nil {
		return st.callers
	}
	st.callers = make(map[*ssa.Function][]*ssa.Function)
	escaped := make(map[*ssa.Function]bool)
	var ops []*ssa.Value
	for _, fn := range st.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee *ssa.Function
				if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					callee, _ = c.Common().Value.(*ssa.Function)
					if callee != nil && callee.Pkg == st.pkg {
						st.callers[callee] = append(st.callers[callee], fn)
					}
				}
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && f != callee {
						escaped[f] = true
					}
				}
			}
		}
	}
	for f := range escaped {
		st.callers[f] = nil
	}
	return st.callers
}

// sibling returns the name of fn's form that takes a context: a method of the same receiver
// or a function of the same package named like fn with a Context suffix ("QueryxContext").
func (st *state) sibling(fn *ssa.Function) string {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return ""
	}
	want := obj.Name() + "Context"
	if recv := obj.Type().(*types.Signature).Recv(); recv != nil {
		if m, _, _ := types.LookupFieldOrMethod(recv.Type(), true, obj.Pkg(), want); m != nil {
			return want
		}
		return ""
	}
	if obj.Pkg() != nil && obj.Pkg().Scope().Lookup(want) != nil {
		return want
	}
	return ""
}

type namedIface struct {
	obj *types.TypeName
	t   types.Type
}

// foreignInterfaces indexes the exported interfaces declared by the packages this one
// imports, by method name.
func (st *state) foreignInterfaces() map[string][]namedIface {
	if st.ifaces != nil {
		return st.ifaces
	}
	st.ifaces = make(map[string][]namedIface)
	for _, imp := range st.pass.Pkg.Imports() {
		scope := imp.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() {
				continue
			}
			it, ok := tn.Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			for i := 0; i < it.NumMethods(); i++ {
				m := it.Method(i).Name()
				st.ifaces[m] = append(st.ifaces[m], namedIface{obj: tn, t: tn.Type()})
			}
		}
	}
	return st.ifaces
}
