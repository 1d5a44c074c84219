package flow

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Implementers finds the methods that a call of an interface method may run when the interface
// is declared in the package being analysed: a package that hides its strategies behind an
// interface of its own (a sender chosen at construction, an OS backend) runs one of its own
// types' methods there. Interfaces of other packages (io.Writer, an SDK's API) are not
// followed: their implementations are anyone's.
type Implementers struct {
	pkg      *ssa.Package
	byMethod map[string][]*types.TypeName // the package's named types, by their methods' names
	generic  []*types.TypeName            // the package's generic named types (not interfaces)
	memo     map[implKey][]*ssa.Function
}

// An implKey is an interface method as called: the same method object serves every interface
// that embeds the one declaring it.
type implKey struct {
	iface  types.Type
	method *types.Func
}

// NewImplementers returns an Implementers for pkg.
func NewImplementers(pkg *ssa.Package) *Implementers {
	return &Implementers{pkg: pkg, memo: make(map[implKey][]*ssa.Function)}
}

// Of returns, for an invoke-mode call of a method of an interface the package declares, the
// methods of the package's named types (not interfaces) that implement it; for a generic
// type, instantiated with a generic interface's type arguments, its generic method (the
// origin, whose body is the one the analyses read); nil for other calls.
func (im *Implementers) Of(cc *ssa.CallCommon) []*ssa.Function {
	if !cc.IsInvoke() {
		return nil
	}
	k := implKey{types.Unalias(cc.Value.Type()), cc.Method}
	if fns, ok := im.memo[k]; ok {
		return fns
	}
	fns := im.of(cc)
	im.memo[k] = fns
	return fns
}

func (im *Implementers) of(cc *ssa.CallCommon) []*ssa.Function {
	named, ok := types.Unalias(cc.Value.Type()).(*types.Named)
	if !ok {
		return nil
	}
	return im.Method(named, cc.Method)
}

// Method returns the methods of the package's named types that implement method m of
// named, an interface the package declares (see Of).
func (im *Implementers) Method(named *types.Named, m *types.Func) []*ssa.Function {
	if named.Obj().Pkg() != im.pkg.Pkg {
		return nil
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if im.byMethod == nil {
		im.index()
	}
	var out []*ssa.Function
	add := func(named types.Type) {
		for _, t := range []types.Type{named, types.NewPointer(named)} {
			if !types.Implements(t, iface) {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
			if fn, ok := obj.(*types.Func); ok {
				if m := im.pkg.Prog.FuncValue(fn.Origin()); m != nil && m.Pkg == im.pkg {
					out = append(out, m)
				}
			}
			return
		}
	}
	for _, tn := range im.byMethod[m.Name()] {
		add(tn.Type())
	}
	// A generic type of the package filled with the interface's own type arguments
	// (ClientImpl[T] behind Client[T]): its generic method's body.
	if targs := named.TypeArgs(); targs.Len() > 0 {
		for _, tn := range im.Generic(iface) {
			if tn.Type().(*types.Named).TypeParams().Len() != targs.Len() {
				continue
			}
			args := make([]types.Type, targs.Len())
			for i := range args {
				args[i] = targs.At(i)
			}
			if inst, err := types.Instantiate(nil, tn.Type(), args, true); err == nil {
				add(inst)
			}
		}
	}
	return out
}

// index indexes the package's named types (not interfaces) by the names of their methods;
// generic ones are kept apart, for Generic.
func (im *Implementers) index() {
	im.byMethod = make(map[string][]*types.TypeName)
	scope := im.pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || types.IsInterface(n) {
			continue
		}
		if n.TypeParams().Len() > 0 {
			im.generic = append(im.generic, tn)
			continue
		}
		ms := types.NewMethodSet(types.NewPointer(tn.Type())) // value methods too
		for i := range ms.Len() {
			method := ms.At(i).Obj().Name()
			im.byMethod[method] = append(im.byMethod[method], tn)
		}
	}
}

// Generic returns the package's generic types that have methods of every name of iface: one
// of their instances may implement it (Of does not instantiate them).
func (im *Implementers) Generic(iface *types.Interface) []*types.TypeName {
	if im.byMethod == nil {
		im.index()
	}
	var out []*types.TypeName
	for _, tn := range im.generic {
		ms := types.NewMethodSet(types.NewPointer(tn.Type()))
		all := true
		for m := range iface.Methods() {
			if ms.Lookup(m.Pkg(), m.Name()) == nil {
				all = false
				break
			}
		}
		if all {
			out = append(out, tn)
		}
	}
	return out
}

// Sole returns the one function of fns for which skip does not hold (the one implementation
// outside tests), or nil when there is none or more than one.
func Sole(fns []*ssa.Function, skip func(*ssa.Function) bool) *ssa.Function {
	var one *ssa.Function
	for _, fn := range fns {
		if skip(fn) {
			continue
		}
		if one != nil {
			return nil
		}
		one = fn
	}
	return one
}

// RecvNamed returns the named type of a method's receiver (through a pointer; a generic
// type's origin), or nil.
func RecvNamed(fn *ssa.Function) *types.TypeName {
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	return BaseNamed(recv.Type())
}

// BaseNamed returns the named type t is or points to (a generic type's origin), or nil.
func BaseNamed(t types.Type) *types.TypeName {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}
