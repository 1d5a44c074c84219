package remote

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Contracts: why a function that takes no context has none to give its remote calls (it is
// the context-free form of an API, or implements a method of another project's interface).

// setContract sets c.Contract when nothing bounds c only for want of a context (none at all,
// or context.Background or TODO) and the function c is in has none to give, by contract.
func (st *state) setContract(c *Call, method string) {
	t := c.Timeout
	if t.Status != Unbounded || t.Client != nil {
		return
	}
	switch t.Context.Kind {
	case NoContext, Background, TODO:
		c.Contract = st.contract(c.Instr, method)
	}
}

// contract says why the function making call (or the function declaring the closure that
// does) has no context to give a call of method: it is the context-free form of an API (it
// only forwards its arguments to that call, or it has a form with a context), or implements a
// method without one of an interface of another project. It returns the zero Contract when it
// could have one.
func (st *state) contract(call ssa.CallInstruction, method string) Contract {
	fn := call.Parent()
	fn = flow.Root(fn)
	if _, ok := fn.Object().(*types.Func); !ok || flow.ContextParam(fn) != nil {
		return Contract{} // it has one to give
	}
	if call.Parent() == fn && flow.RequestParam(fn) != nil {
		// The request's (a RoundTrip's, a handler's); not a goroutine's or callback's, which
		// may outlive the request.
		return Contract{}
	}
	if obj := fn.Object(); call.Parent() == fn && obj.Exported() && forwards(call) {
		return Contract{Kind: ContextFree, Name: method}
	}
	if sib := st.sibling(fn); sib != "" {
		return Contract{Kind: ContextFree, Name: sib}
	}
	return st.bound(fn)
}

// forwards reports whether call only passes on what its function is given: its receiver
// and arguments are the function's parameters (or fields of them, or a variadic parameter
// passed on), and the function makes no other call that can fail. Such a thin form of an API
// (db.Queryx(q, args...) calling db.DB.Query(q, args...)) takes no context by design and its
// callers chose it; a function that writes its own query or address is not one.
func forwards(call ssa.CallInstruction) bool {
	fn := call.Parent()
	for other := range flow.Calls(fn) {
		if other != call && typeis.ReturnsError(other.Common().Signature()) {
			return false
		}
	}
	c := call.Common()
	vals := append([]ssa.Value{c.Value}, c.Args...)
	if !c.IsInvoke() {
		vals = c.Args
	}
	for _, v := range vals {
		if !passedOn(v, 0) {
			return false
		}
	}
	return true
}

// passedOn reports whether v is a parameter, or loaded from a field of one (or of a local
// variable that holds only a parameter).
func passedOn(v ssa.Value, depth int) bool {
	switch v := flow.Unwrap(v).(type) {
	case *ssa.Parameter:
		return true
	case *ssa.Const:
		return v.IsNil() // no variadic arguments
	case *ssa.UnOp:
		return v.Op == token.MUL && depth < 3 && passedOn(v.X, depth+1)
	case *ssa.FieldAddr:
		return depth < 3 && passedOn(v.X, depth+1)
	case *ssa.Field:
		return depth < 3 && passedOn(v.X, depth+1)
	case *ssa.Alloc:
		// A value receiver or parameter spilled to memory (db.DB.Begin() on a DB value):
		// the variable holds only the parameter.
		stored := flow.Stored(v)
		return len(stored) == 1 && depth < 3 && passedOn(stored[0], depth+1)
	}
	return false
}

// bound says why fn, which takes no context, cannot be given one by its callers: it
// implements a method without a context of an interface of another project, or it is an
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
	if !ok || flow.ContextParam(fn) != nil || flow.RequestParam(fn) != nil {
		return Contract{}
	}
	name := obj.Name()
	sig := obj.Signature()
	if sig.Recv() != nil {
		for _, iface := range st.foreignInterfaces()[name] {
			if st.ownProject(iface.obj.Pkg().Path()) {
				continue // the project can give its own interface a context
			}
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
		caller = flow.Root(caller)
		if st.bound(caller).Kind == 0 {
			return Contract{}
		}
		if first.Kind == 0 {
			first = Contract{Kind: CalledFrom, Name: caller.Name()}
		}
	}
	return first
}

// argsGiven returns what the package's production calls give parameter p of one of its
// functions (a test's stand-in is not what users run), and whether those are all it is given:
// not when other packages may call the function (exported, or used as a value).
func (st *state) argsGiven(p *ssa.Parameter) (args []ssa.Value, onlyThese bool) {
	fn := p.Parent()
	idx := slices.Index(fn.Params, p)
	callers, listed := st.callGraph()[fn]
	for _, c := range callers {
		if testcode.At(st.pass, c.Pos()) {
			continue
		}
		for call := range flow.Calls(c) {
			if common := call.Common(); !common.IsInvoke() && common.StaticCallee() == fn && idx < len(common.Args) {
				args = append(args, common.Args[idx])
			}
		}
	}
	return args, listed && callers != nil && !(fn.Object() != nil && fn.Object().Exported())
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
				var callee, called *ssa.Function
				if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					callee, _ = c.Common().Value.(*ssa.Function)
					called = flow.Generic(callee)
					if called != nil && called.Pkg == st.pkg {
						st.callers[called] = append(st.callers[called], fn)
					}
				}
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && f != callee {
						escaped[f], escaped[flow.Generic(f)] = true, true // (an instance's body is its origin's)
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
// or a function of the same package named as the API names fn's context form ("QueryxContext",
// "BeginTx").
func (st *state) sibling(fn *ssa.Function) string {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return ""
	}
	want := knowledge.ContextForm(obj.Name())
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

// ownProject reports whether package path pkg belongs to the project analysed, whose
// maintainers can change its interfaces: the same module. Without a module (GOPATH mode,
// other build systems) only paths without a domain that share their first element count:
// a github.com/... path may be anyone's.
func (st *state) ownProject(pkg string) bool {
	if m := st.pass.Module; m != nil && m.Path != "" {
		return !OtherModule(m, pkg)
	}
	first := func(p string) string { s, _, _ := strings.Cut(p, "/"); return s }
	f := first(st.pass.Pkg.Path())
	return !strings.Contains(f, ".") && first(pkg) == f
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
