package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// This file reads what a package builds: the fields stored into its structs, the composite
// literals and package variables a value comes from, the calls that make it.

// ownFields returns the stores into the fields of the struct that ptr points to, or, for a
// variable boxed because a closure captures it, through every load of the box.
func ownFields(ptr ssa.Value) map[string]*ssa.Store {
	out := make(map[string]*ssa.Store)
	for name, stores := range allOwnFields(ptr) {
		out[name] = stores[len(stores)-1]
	}
	return out
}

// allOwnFields is ownFields with every store into each field, in the order found (the two
// sides of if eb { c.RetryMax = 0 } else { c.RetryMax = n }).
func allOwnFields(ptr ssa.Value) map[string][]*ssa.Store {
	out := make(map[string][]*ssa.Store)
	storedFields(ptr, out)
	if a, ok := ptr.(*ssa.Alloc); ok && a.Referrers() != nil {
		for _, r := range *a.Referrers() {
			if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
				storedFields(load, out)
			}
		}
	}
	return out
}

// fieldStores returns, for the struct values that v is computed from (composite literals,
// constructor results later assigned to), the last value stored into each named field.
func fieldStores(vals ...ssa.Value) map[string]ssa.Value {
	out := make(map[string]ssa.Value)
	for _, v := range vals {
		if v == nil {
			continue
		}
		flow.Backward(v, 256, func(x ssa.Value) bool {
			for f, store := range ownFields(x) {
				out[f] = store.Val
			}
			return true
		})
	}
	return out
}

// storedFields records in out the stores into the fields of the struct ptr points to.
func storedFields(ptr ssa.Value, out map[string][]*ssa.Store) {
	refs := ptr.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != ptr {
			continue
		}
		fv := flow.FieldVar(fa)
		if fv == nil {
			continue
		}
		for _, rr := range *fa.Referrers() {
			if store, ok := rr.(*ssa.Store); ok && store.Addr == fa {
				out[fv.Name()] = append(out[fv.Name()], store)
			}
		}
	}
}

// hasCall reports whether one of cs calls a function of pkg with one of the names.
func hasCall(cs []*ssa.Call, pkg string, names ...string) bool {
	return slices.ContainsFunc(cs, func(c *ssa.Call) bool {
		id := flow.ID(flow.Callee(c.Common()))
		return id.Pkg == pkg && slices.Contains(names, id.Name)
	})
}

// isAllocOf reports whether v is computed from a composite literal of type pkg.name.
func isAllocOf(v ssa.Value, pkg, name string) bool {
	found := false
	flow.Backward(v, 64, func(x ssa.Value) bool {
		if a, ok := x.(*ssa.Alloc); ok {
			if n, ok := types.Unalias(a.Type().(*types.Pointer).Elem()).(*types.Named); ok &&
				n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// loadsGlobal reports whether v is computed from the package variable pkg.name.
func loadsGlobal(v ssa.Value, pkg, name string) bool {
	found := false
	flow.Backward(v, 64, func(x ssa.Value) bool {
		if g, ok := x.(*ssa.Global); ok && g.Pkg != nil && g.Pkg.Pkg.Path() == pkg && g.Name() == name {
			found = true
		}
		return !found
	})
	return found
}
