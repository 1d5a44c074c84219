package retryscope

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Forwarding layers between two retry layers: a struct of another package whose methods call
// the same methods of an interface it holds in a field (a sharding or metrics layer over a
// storage implementation), filled by that package's constructor. The wiring (wired.go) follows
// a method of the value it hands to a retry scope through such a layer to the implementation
// underneath, when the wiring also builds the layer: retrying.New(&store{Storage:
// sharded.New(&davImpl{...})}).

// forwardFact marks an exported method that calls methods of the interface value held in a
// field of its receiver.
type forwardFact struct {
	Calls []forwarded
}

// A forwarded call is a method (Method) of the interface value in the receiver's field Field.
type forwarded struct {
	Field, Method string
}

func (*forwardFact) AFact() {}

func (f *forwardFact) String() string {
	s := "forwards to"
	for _, c := range f.Calls {
		s += fmt.Sprintf(" %s.%s", c.Field, c.Method)
	}
	return s
}

// fillsFact marks an exported function that returns a struct it builds with some of its
// parameters stored in fields: Params[i] goes into Fields[i].
type fillsFact struct {
	Params []int
	Fields []string
}

func (*fillsFact) AFact() {}

func (f *fillsFact) String() string {
	return fmt.Sprintf("fills fields %v from parameters %v", f.Fields, f.Params)
}

// exportForwards exports the package's forwardFacts and fillsFacts, for the layers it makes
// both: a method forwarding to an interface field that an exported function of the package
// fills from its parameter (and only those fields).
func (st *state) exportForwards() {
	type key struct {
		t     *types.TypeName
		field string
	}
	forwards := make(map[*types.Func]*forwardFact)
	fills := make(map[*types.Func]*fillsFact)
	fwd, filled := make(map[key]bool), make(map[key]bool)
	for _, fn := range st.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || obj.Pkg() != st.pass.Pkg || len(fn.Blocks) == 0 {
			continue
		}
		if fn.Signature.Recv() != nil && len(fn.Params) > 0 {
			if f := forwardsOf(fn); f != nil {
				forwards[obj] = f
				if n := namedOf(fn.Params[0].Type()); n != nil {
					for _, c := range f.Calls {
						fwd[key{n.Obj(), c.Field}] = true
					}
				}
			}
			continue
		}
		if f := fillsOf(fn); f != nil {
			fills[obj] = f
			if n := namedOf(fn.Signature.Results().At(0).Type()); n != nil {
				for _, field := range f.Fields {
					filled[key{n.Obj(), field}] = true
				}
			}
		}
	}
	for obj, f := range forwards {
		n := namedOf(obj.Type().(*types.Signature).Recv().Type())
		f.Calls = slices.DeleteFunc(f.Calls, func(c forwarded) bool { return n == nil || !filled[key{n.Obj(), c.Field}] })
		if len(f.Calls) > 0 {
			st.pass.ExportObjectFact(obj, f)
		}
	}
	for obj, f := range fills {
		n := namedOf(obj.Type().(*types.Signature).Results().At(0).Type())
		var kept fillsFact
		for i, field := range f.Fields {
			if n != nil && fwd[key{n.Obj(), field}] {
				kept.Params, kept.Fields = append(kept.Params, f.Params[i]), append(kept.Fields, field)
			}
		}
		if len(kept.Params) > 0 {
			st.pass.ExportObjectFact(obj, &kept)
		}
	}
}

// forwardsOf returns the calls method fn makes of interface values held in its receiver's
// fields (s.Impl.PutBlobInPath(...)), or nil.
func forwardsOf(fn *ssa.Function) *forwardFact {
	recv := fn.Params[0]
	var f forwardFact
	for call := range flow.Calls(fn) {
		cc := call.Common()
		if !cc.IsInvoke() {
			continue
		}
		ld, ok := cc.Value.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		if !ok || flow.Unwrap(fa.X) != recv {
			continue
		}
		if fv := flow.FieldVar(fa); fv != nil && layerIface(fv.Type()) {
			f.Calls = append(f.Calls, forwarded{Field: fv.Name(), Method: cc.Method.Name()})
		}
	}
	if len(f.Calls) == 0 {
		return nil
	}
	return &f
}

// fillsOf returns which of fn's parameters the struct it returns holds in which fields
// (return &Storage{Impl: impl, ...}), or nil.
func fillsOf(fn *ssa.Function) *fillsFact {
	if fn.Signature.Results().Len() == 0 {
		return nil
	}
	var f fillsFact
	for ret := range flow.Returns(fn) {
		v := flow.Unwrap(ret.Results[0])
		if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
			v = ld.X // a struct returned by value: the local it was built in
		}
		stores := ownFields(v) // the returned struct's own fields
		for _, name := range slices.Sorted(maps.Keys(stores)) {
			if p, ok := flow.Unwrap(stores[name].Val).(*ssa.Parameter); ok {
				if i := slices.Index(fn.Params, p); i >= 0 && !slices.Contains(f.Fields, name) {
					f.Params, f.Fields = append(f.Params, i), append(f.Fields, name)
				}
			}
		}
	}
	if len(f.Params) == 0 {
		return nil
	}
	return &f
}

// forwardedTo returns, for method m of the type of v (promoted from a struct of another
// package embedded in it), the values that the methods m forwards to are called on, with the
// method each calls: the interface value the wiring put in the embedded struct's field, given
// to that package's constructor (fillsFact) or set in a composite literal of it.
func (st *state) forwardedTo(v ssa.Value, t types.Type, m *types.Func) (vals []ssa.Value, methods []string) {
	var ff forwardFact
	if !st.pass.ImportObjectFact(m, &ff) {
		return nil, nil
	}
	_, index, _ := types.LookupFieldOrMethod(t, true, st.pass.Pkg, m.Name())
	if len(index) != 2 {
		return nil, nil // the method of a struct embedded in the value's own: one level
	}
	st2 := namedOf(t)
	if st2 == nil {
		return nil, nil
	}
	s, ok := st2.Underlying().(*types.Struct)
	if !ok || index[0] >= s.NumFields() {
		return nil, nil
	}
	embedded := fieldStores(v)[s.Field(index[0]).Name()]
	if embedded == nil {
		return nil, nil
	}
	inner := fieldStores(embedded) // a composite literal of the layer
	if call, ok := flow.Unwrap(embedded).(*ssa.Call); ok {
		if callee := flow.Callee(call.Common()); callee != nil {
			var fills fillsFact
			if st.pass.ImportObjectFact(callee, &fills) {
				for i, p := range fills.Params {
					if p < len(call.Call.Args) {
						inner[fills.Fields[i]] = call.Call.Args[p]
					}
				}
			}
		}
	}
	for _, c := range ff.Calls {
		if iv := inner[c.Field]; iv != nil {
			vals, methods = append(vals, iv), append(methods, c.Method)
		}
	}
	return vals, methods
}
