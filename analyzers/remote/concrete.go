package remote

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Interface values whose concrete type the program shows. A call of an interface method of
// another package's interface may go anywhere, unless every value the receiver can hold is in
// view: a parameter of a function that only this package calls (waitFor(reg, ...) after
// reg := registry.NewMemoryRegistry()), an unexported field the package fills, each made from
// a type whose methods are known, or by a constructor whose concreteFact says what its
// value's methods reach.

// concreteFact marks an exported function that returns an interface value of one concrete
// type: which methods of the interface reach a remote call on that value, and which may. The
// others stay in the process.
type concreteFact struct {
	Remote, Unknown []string
}

func (*concreteFact) AFact() {}

func (f *concreteFact) String() string {
	return fmt.Sprintf("returns one concrete type: remote %v, unknown %v", f.Remote, f.Unknown)
}

// maxWiring bounds how many parameters, fields and constructors wiredReach follows back.
const maxWiring = 4

// wiredReach says where the interface call c goes when every value its receiver may hold is
// in view (see above); known is false otherwise.
func (r *reacher) wiredReach(c *ssa.CallCommon) (reach Reach, known bool) {
	return r.valueReach(c.Value, c, 0, make(map[ssa.Value]bool))
}

// valueReach says whether the interface method that c calls (c.Method), called on the
// interface value v, may leave the process, over every value v may hold.
func (r *reacher) valueReach(v ssa.Value, c *ssa.CallCommon, depth int, seen map[ssa.Value]bool) (Reach, bool) {
	if depth > maxWiring {
		return 0, false
	}
	v = flow.Captured(v)
	if v == nil || seen[v] {
		return 0, v != nil // a value met again adds nothing
	}
	seen[v] = true
	x := flow.Unwrap(v)
	if !types.IsInterface(x.Type()) {
		return r.methodReach(x.Type(), c)
	}
	switch x := x.(type) {
	case *ssa.Const:
		return ReachLocal, x.IsNil() // nil holds nothing to call
	case *ssa.Parameter:
		return r.all(r.argsFor(x), c, depth, seen)
	case *ssa.Phi:
		return r.all(x.Edges, c, depth, seen)
	case *ssa.UnOp:
		_, fa := flow.FieldLoad(x)
		if fa == nil {
			return 0, false
		}
		fv := flow.FieldVar(fa)
		if fv == nil || fv.Exported() || fv.Pkg() != r.pass.Pkg || r.stores == nil || len(r.stores.Fields[fv]) == 0 {
			return 0, false // a field others may fill
		}
		if reach, ok := r.all(r.stores.Fields[fv], c, depth, seen); ok {
			return reach, true
		}
		return r.byDefault(r.stores.Fields[fv], c, depth)
	}
	call, idx := flow.CallResult(x)
	if call == nil || call.Call.IsInvoke() {
		return 0, false
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		// command.New(cmd), New a variable of another package that holds, by default, a
		// function whose concreteFact says where its value's methods go.
		if g := flow.LoadedGlobal(call.Call.Value); g != nil && g.Object() != nil && g.Pkg != r.pkg {
			return r.factReach(g.Object(), c)
		}
		return 0, false
	}
	if callee.Pkg == r.pkg {
		var rets []ssa.Value
		for ret := range flow.Returns(callee) {
			if idx >= len(ret.Results) {
				return 0, false
			}
			rets = append(rets, ret.Results[idx])
		}
		return r.all(rets, c, depth, seen)
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return 0, false
	}
	return r.factReach(obj.Origin(), c)
}

// factReach says where the interface method c goes on a value made by obj, a function of
// another package or a variable holding one, by obj's concreteFact.
func (r *reacher) factReach(obj types.Object, c *ssa.CallCommon) (Reach, bool) {
	var f concreteFact
	if !r.pass.ImportObjectFact(obj, &f) {
		return 0, false
	}
	switch {
	case slices.Contains(f.Remote, c.Method.Name()):
		return ReachRemote, true
	case slices.Contains(f.Unknown, c.Method.Name()):
		return ReachUnknown, true
	}
	return ReachLocal, true
}

// byDefault says that the interface method c, called on a field that holds one of vs, leaves
// the process when what the package itself stores there does, and stays in it when that does,
// the rest being values its callers give (WithClient(kc) beside c.client =
// kinesis.NewFromConfig(cfg) when none is given; WithQueue(q) beside an in-memory queue): the
// default is what most of its users run, and a caller's replacement stands for the same kind
// of thing. Not known otherwise.
func (r *reacher) byDefault(vs []ssa.Value, c *ssa.CallCommon, depth int) (Reach, bool) {
	var own []ssa.Value
	for _, v := range vs {
		if flow.CallersValue(v) {
			continue // a caller's, through an exported function or option
		}
		own = append(own, v)
	}
	if len(own) == 0 || len(own) == len(vs) {
		return 0, false
	}
	reach, ok := r.all(own, c, depth, make(map[ssa.Value]bool))
	switch {
	case !ok:
	case reach == ReachRemote:
		return reach, true
	case reach == ReachLocal && r.implementedLocally(c):
		return reach, true
	}
	return 0, false
}

// implementedLocally reports whether every type the package converts to the interface c's
// method belongs to stays in the process in that method: a package that also offers a remote
// implementation (a queue kept in a shared store) expects callers to plug it in.
func (r *reacher) implementedLocally(c *ssa.CallCommon) bool {
	iface := flow.BaseNamed(c.Value.Type())
	if iface == nil || r.stores == nil {
		return false
	}
	for _, impl := range r.stores.Converted[iface] {
		if reach, ok := r.methodReach(types.NewPointer(impl.Type()), c); !ok || reach != ReachLocal {
			return false
		}
	}
	return true
}

// all is valueReach over vs: the widest reach, known when every one is.
func (r *reacher) all(vs []ssa.Value, c *ssa.CallCommon, depth int, seen map[ssa.Value]bool) (Reach, bool) {
	if len(vs) == 0 {
		return 0, false
	}
	reach := ReachLocal
	for _, v := range vs {
		rv, ok := r.valueReach(v, c, depth+1, seen)
		if !ok {
			return 0, false
		}
		reach = max(reach, rv)
	}
	return reach, true
}

// argsFor returns the values handed to parameter p at every call of its function, when this
// package makes all of them: a plain function (not a method, which an interface may call, nor
// a closure) that is only called, and that no other package can call (unexported, or in
// package main). It returns nil otherwise.
func (r *reacher) argsFor(p *ssa.Parameter) []ssa.Value {
	fn := p.Parent()
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Parent() != nil || fn.Signature.Recv() != nil || r.stores == nil || r.stores.AsValue[fn] ||
		obj.Exported() && r.pass.Pkg.Name() != "main" {
		return nil
	}
	i := slices.Index(fn.Params, p)
	var out []ssa.Value
	for _, c := range r.stores.Calls[fn] {
		args := c.Common().Args
		if i < 0 || i >= len(args) || c.Common().Signature().Variadic() && i == len(args)-1 {
			return nil
		}
		out = append(out, args[i])
	}
	return out
}

// methodReach says whether the method of concrete type t that implements the interface
// method c calls may leave the process.
func (r *reacher) methodReach(t types.Type, c *ssa.CallCommon) (Reach, bool) {
	m := c.Method
	sel := r.pkg.Prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name())
	if sel == nil {
		return 0, false
	}
	obj, ok := sel.Obj().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return 0, false
	}
	if obj.Pkg() == r.pass.Pkg {
		fn := r.pkg.Prog.FuncValue(obj)
		if fn == nil {
			return 0, false
		}
		return r.of[fn], true
	}
	if recv := obj.Type().(*types.Signature).Recv(); recv == nil || types.IsInterface(recv.Type()) {
		return 0, false // promoted from an embedded interface: anyone's
	}
	return r.funcReach(c, obj), true
}

// exportConcrete exports a concreteFact for each exported function of the package that returns
// an interface value (beside an error) of which the program shows every concrete value, and for
// each exported variable that holds such a function by default (var New = func(cmd *exec.Cmd)
// Interface { return cmd }: a seam its tests replace).
func (r *reacher) exportConcrete(funcs []*ssa.Function) {
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || fn.Synthetic != "" || fn.Parent() != nil || len(fn.Blocks) == 0 {
			continue
		}
		if f, ok := r.concrete(fn); ok {
			r.pass.ExportObjectFact(obj, f)
		}
	}
	for _, m := range r.pkg.Members {
		g, ok := m.(*ssa.Global)
		if !ok || g.Object() == nil || !g.Object().Exported() {
			continue
		}
		if fn, ok := flow.InitValue(g).(*ssa.Function); ok && len(fn.Blocks) > 0 {
			if f, ok := r.concrete(fn); ok {
				r.pass.ExportObjectFact(g.Object(), f)
			}
		}
	}
}

// concrete returns the concreteFact of fn, when it returns an interface value (beside an error)
// of which the program shows every concrete value.
func (r *reacher) concrete(fn *ssa.Function) (*concreteFact, bool) {
	idx, iface := concreteResult(fn.Signature)
	if iface == nil || iface.NumMethods() == 0 {
		return nil, false
	}
	var rets []ssa.Value
	for ret := range flow.Returns(fn) {
		rets = append(rets, ret.Results[idx])
	}
	if len(rets) == 0 {
		return nil, false
	}
	var f concreteFact
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		if !m.Exported() {
			continue // no other package calls it
		}
		// The call of m as another package makes it (its arguments unseen).
		c := &ssa.CallCommon{Value: rets[0], Method: m}
		reach, known := r.all(rets, c, 0, make(map[ssa.Value]bool))
		if !known {
			return nil, false
		}
		switch reach {
		case ReachRemote:
			f.Remote = append(f.Remote, m.Name())
		case ReachUnknown:
			f.Unknown = append(f.Unknown, m.Name())
		}
	}
	return &f, true
}

// concreteResult returns the one result of sig, other than an error, that is an interface.
func concreteResult(sig *types.Signature) (int, *types.Interface) {
	idx, found := -1, (*types.Interface)(nil)
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		if typeis.ErrorLike(t) {
			continue
		}
		it, ok := t.Underlying().(*types.Interface)
		if !ok {
			continue
		}
		if found != nil {
			return -1, nil
		}
		idx, found = i, it
	}
	return idx, found
}
