package flow

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Stores indexes the values that a package's functions store into struct fields (by field,
// whatever the struct value) and package variables: a flow-insensitive view of what a field
// or variable may hold when it is loaded elsewhere.
type Stores struct {
	Fields  map[*types.Var][]ssa.Value
	Globals map[*ssa.Global][]ssa.Value
	// StoredIn names, for a stored constant (the zero http.Client{} a literal leaves in a
	// field), which belongs to no function, the function that stores it.
	StoredIn map[*ssa.Const]*ssa.Function
	// Taken holds the package variables whose address the package hands on (flag.IntVar(&n,
	// ...), p := &n): written where the index does not see.
	Taken map[*ssa.Global]bool
	// Calls holds the static calls of the package's functions, by callee; AsValue the
	// functions used otherwise too (stored, passed, returned, made into a closure): their
	// callers are not all in Calls.
	Calls   map[*ssa.Function][]ssa.CallInstruction
	AsValue map[*ssa.Function]bool
	// MapWrites holds, by package variable, the writes m[k] = v the package makes into the
	// map the variable holds (registrations in init functions).
	MapWrites map[*ssa.Global][]*ssa.MapUpdate
	// Converted holds, by interface type (a generic one's origin), the named types whose
	// values the package converts to it (a constructor returning its implementation as the
	// interface, a field of the interface type given one).
	Converted map[*types.TypeName][]*types.TypeName
	// StructFields holds, by field, the addresses the package takes of fields of struct type
	// (&p.client, where p holds a client by value): where its parts are set.
	StructFields map[*types.Var][]*ssa.FieldAddr
}

// IndexStores builds the Stores of funcs.
func IndexStores(funcs []*ssa.Function) *Stores {
	s := &Stores{Fields: make(map[*types.Var][]ssa.Value), Globals: make(map[*ssa.Global][]ssa.Value), Taken: make(map[*ssa.Global]bool),
		Calls: make(map[*ssa.Function][]ssa.CallInstruction), AsValue: make(map[*ssa.Function]bool),
		StoredIn: make(map[*ssa.Const]*ssa.Function), Converted: make(map[*types.TypeName][]*types.TypeName),
		MapWrites: make(map[*ssa.Global][]*ssa.MapUpdate), StructFields: make(map[*types.Var][]*ssa.FieldAddr)}
	var ops []*ssa.Value
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ops = instr.Operands(ops[:0])
				for i, op := range ops {
					if g, ok := (*op).(*ssa.Global); ok && !addressed(instr, i) {
						s.Taken[g] = true
					}
					if f, ok := (*op).(*ssa.Function); ok && !called(instr, i) {
						s.AsValue[f] = true
					}
				}
				if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					if f := c.Common().StaticCallee(); f != nil {
						s.Calls[f] = append(s.Calls[f], c)
					}
				}
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					if iface, concrete := BaseNamed(mi.Type()), BaseNamed(mi.X.Type()); iface != nil && concrete != nil && !slices.Contains(s.Converted[iface], concrete) {
						s.Converted[iface] = append(s.Converted[iface], concrete)
					}
				}
				if fa, ok := instr.(*ssa.FieldAddr); ok {
					if _, isStruct := fa.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); isStruct {
						if fv := FieldVar(fa); fv != nil {
							s.StructFields[fv] = append(s.StructFields[fv], fa)
						}
					}
				}
				if mu, ok := instr.(*ssa.MapUpdate); ok {
					if ld, ok := mu.Map.(*ssa.UnOp); ok && ld.Op == token.MUL {
						if g, ok := ld.X.(*ssa.Global); ok {
							s.MapWrites[g] = append(s.MapWrites[g], mu)
						}
					}
				}
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if k, ok := st.Val.(*ssa.Const); ok {
					s.StoredIn[k] = fn
				}
				switch addr := st.Addr.(type) {
				case *ssa.FieldAddr:
					if fv := FieldVar(addr); fv != nil {
						s.Fields[fv] = append(s.Fields[fv], st.Val)
					}
				case *ssa.Global:
					s.Globals[addr] = append(s.Globals[addr], st.Val)
				}
			}
		}
	}
	return s
}

// Fills reports whether the package itself converts a value of method fn's receiver type to
// named, an interface (see Converted): where the package puts its implementation behind the
// interface, a call of the interface runs it, unless the caller brings a value of its own.
func (s *Stores) Fills(named *types.Named, fn *ssa.Function) bool {
	recv := RecvNamed(fn)
	return recv != nil && slices.Contains(s.Converted[named.Origin().Obj()], recv)
}

// called reports whether operand i of instr is the function a call calls (its first operand).
func called(instr ssa.Instruction, i int) bool {
	c, ok := instr.(ssa.CallInstruction)
	return ok && i == 0 && !c.Common().IsInvoke()
}

// addressed reports whether operand i of instr uses a package variable's address only to load
// from it or store into it (or into a part of it).
func addressed(instr ssa.Instruction, i int) bool {
	switch x := instr.(type) {
	case *ssa.UnOp:
		return x.Op == token.MUL
	case *ssa.Store:
		return i == 0 // the address, not the value stored
	case *ssa.FieldAddr, *ssa.IndexAddr:
		return true
	}
	return false
}

// Constant returns the constant that a load of a package variable always gives: the package
// assigns the variable one constant, in its declaration, and nothing else (var maxAttempts =
// 3); an exported variable of a library may be set by its importers.
func (s *Stores) Constant(v ssa.Value) (*ssa.Const, bool) {
	if s == nil {
		return nil, false
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || s.Taken[g] || len(s.Globals[g]) != 1 || g.Object() != nil && g.Object().Exported() && g.Pkg.Pkg.Name() != "main" {
		return nil, false
	}
	c, ok := Unwrap(s.Globals[g][0]).(*ssa.Const)
	return c, ok
}

// Backward is flow.Backward that also goes from a load of a struct field or package variable
// to the values the package stores into it; on a nil *Stores it is flow.Backward.
func (s *Stores) Backward(v ssa.Value, limit int, visit func(ssa.Value) bool) {
	backward(v, limit, visit, s, nil)
}

// BackwardInto is Backward that also goes from a call of a function of package into to the
// values that function returns.
func (s *Stores) BackwardInto(v ssa.Value, into *types.Package, limit int, visit func(ssa.Value) bool) {
	backward(v, limit, visit, s, into)
}

// Loaded returns the values the package stores into the struct field or package variable
// that v loads; nil when v is not such a load.
func (s *Stores) Loaded(v ssa.Value) []ssa.Value {
	if s == nil {
		return nil
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	switch addr := load.X.(type) {
	case *ssa.FieldAddr:
		if fv := FieldVar(addr); fv != nil {
			return s.Fields[fv]
		}
	case *ssa.Global:
		return s.Globals[addr]
	}
	return nil
}

// Concrete returns the method named name of the one concrete type of every value the package
// pkg stores into the field of its own that v loads (an interface kept as a seam for tests:
// c.http = retrying.StandardClient()), and the first such value; nil when v is not such a
// load, or the stored values have other types, or none. Stored values for which skip holds
// (a test's stand-in: testcode.Made) do not count.
func (s *Stores) Concrete(v ssa.Value, pkg *types.Package, name string, skip func(ssa.Value) bool) (*types.Func, ssa.Value) {
	load, ok := Unwrap(v).(*ssa.UnOp)
	if s == nil || !ok || load.Op != token.MUL {
		return nil, nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, nil
	}
	fv := FieldVar(fa)
	if fv == nil || fv.Pkg() != pkg {
		return nil, nil
	}
	var t types.Type
	var first ssa.Value
	for _, stored := range s.Fields[fv] {
		if skip != nil && skip(stored) {
			continue
		}
		mi, ok := stored.(*ssa.MakeInterface)
		if !ok || t != nil && !types.Identical(t, mi.X.Type()) {
			return nil, nil
		}
		if t == nil {
			t, first = mi.X.Type(), mi.X
		}
	}
	if t == nil {
		return nil, nil
	}
	m, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, _ := m.(*types.Func)
	if fn == nil {
		return nil, nil
	}
	return fn, first
}

// MapEntries returns the values the package puts under key (every value, when key is not a
// constant) into the maps that m may be: map literals held by package variables, and what the
// package writes into them (var handlers = map[string]any{opFetch: fetchPG}; handlers[k] = f in
// an init function), through functions of the package that return one of them. complete is
// false when m may be another map, or one that code out of view writes (an exported variable
// of a package other than main).
func (s *Stores) MapEntries(m, key ssa.Value) (entries []ssa.Value, complete bool) {
	k, keyConst := Unwrap(key).(*ssa.Const)
	complete = true
	seen := make(map[ssa.Value]bool)
	add := func(mk, v ssa.Value) {
		if ek, isConst := Unwrap(mk).(*ssa.Const); keyConst && isConst && ek.Value != nil && k.Value != nil &&
			ek.Value.Kind() == k.Value.Kind() && !constant.Compare(ek.Value, token.EQL, k.Value) {
			return // another key's entry
		}
		entries = append(entries, v)
	}
	var visit func(v ssa.Value, depth int)
	visit = func(v ssa.Value, depth int) {
		v = Unwrap(v)
		if seen[v] {
			return
		}
		seen[v] = true
		if depth > 6 {
			complete = false
			return
		}
		switch x := v.(type) {
		case *ssa.UnOp:
			g, global := x.X.(*ssa.Global)
			if !global || x.Op != token.MUL || s.Taken[g] || len(s.Globals[g]) == 0 {
				complete = false
				return
			}
			if obj := g.Object(); obj != nil && obj.Exported() && g.Pkg != nil && g.Pkg.Pkg.Name() != "main" {
				complete = false // other packages may write it too
			}
			for _, st := range s.Globals[g] {
				visit(st, depth+1)
			}
			for _, mu := range s.MapWrites[g] {
				add(mu.Key, mu.Value)
			}
		case *ssa.MakeMap:
			if x.Referrers() == nil {
				return
			}
			for _, r := range *x.Referrers() {
				if mu, isUpdate := r.(*ssa.MapUpdate); isUpdate && mu.Map == x {
					add(mu.Key, mu.Value)
				}
			}
		case *ssa.Phi:
			for _, e := range x.Edges {
				visit(e, depth+1)
			}
		case *ssa.Call:
			rets := ReturnedBy(x)
			if len(rets) == 0 {
				complete = false
			}
			for _, r := range rets {
				visit(r, depth+1)
			}
		default:
			complete = false
		}
	}
	visit(m, 0)
	return entries, complete
}

// Seam returns the function that c, a call of a package-level variable of function type,
// runs when every value the package stores there (skip leaves out a test's stand-in) is that
// one function: var doRequest = func(req *http.Request) (*http.Response, error) { return
// http.DefaultClient.Do(req) }, a seam that tests replace and production code runs as
// written. Nil for any other call.
func (s *Stores) Seam(c *ssa.CallCommon, skip func(ssa.Value) bool) *ssa.Function {
	if s == nil || c.IsInvoke() || c.StaticCallee() != nil {
		return nil
	}
	load, ok := c.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || s.Taken[g] {
		return nil // (its address handed on: stores the index does not see)
	}
	return s.seamIn(g, skip)
}

// seamIn returns the one function the package stores in g (skip leaving out a test's
// stand-in), or nil.
func (s *Stores) seamIn(g *ssa.Global, skip func(ssa.Value) bool) *ssa.Function {
	var fn *ssa.Function
	for _, v := range s.Globals[g] {
		if skip != nil && skip(v) {
			continue
		}
		f, ok := v.(*ssa.Function)
		if !ok || fn != nil && f != fn {
			return nil
		}
		fn = f
	}
	return fn
}

// Seams returns the functions that package variables hold as seams (see Seam), once for all
// the package's calls.
func (s *Stores) Seams(skip func(ssa.Value) bool) map[*ssa.Function]bool {
	out := make(map[*ssa.Function]bool)
	if s == nil {
		return out
	}
	for g := range s.Globals {
		if fn := s.seamIn(g, skip); fn != nil && !s.Taken[g] {
			out[fn] = true
		}
	}
	return out
}
