package flow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Backward visits v and the values it is computed from: operands of its instruction, the edges
// of phis, the values stored into the memory it loads, and the arguments and receiver of the
// calls that produce it. visit returns false to stop descending below a value. The walk visits
// each value once and at most limit values in all.
func Backward(v ssa.Value, limit int, visit func(ssa.Value) bool) {
	backward(v, limit, visit, nil, nil)
}

func backward(v ssa.Value, limit int, visit func(ssa.Value) bool, stores *Stores, into *types.Package) {
	seen := make(map[ssa.Value]bool)
	stack := []ssa.Value{v}
	var ops []*ssa.Value
	for len(stack) > 0 && len(seen) < limit {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == nil || seen[x] {
			continue
		}
		seen[x] = true
		if !visit(x) {
			continue
		}
		switch x := x.(type) {
		case *ssa.Alloc:
			// Values stored into the allocation, its fields and its elements.
			stack = append(stack, Stored(x)...)
			continue
		case *ssa.FreeVar:
			// A closure's captured value: what its creators bind.
			stack = append(stack, Bindings(x)...)
			continue
		case *ssa.Function, *ssa.Global, *ssa.Const, *ssa.Parameter, *ssa.Builtin:
			continue
		case *ssa.Call:
			// A function of package into: what it returns (opts := c.dialOptions()).
			if fn := x.Call.StaticCallee(); into != nil && fn != nil && fn.Pkg != nil && fn.Pkg.Pkg == into && len(fn.Blocks) > 0 {
				for ret := range Returns(fn) {
					stack = append(stack, ret.Results...)
				}
			}
		case *ssa.UnOp:
			if stores != nil {
				stack = append(stack, stores.Loaded(x)...)
			}
			// A field of a local struct: what is stored into that field, not into the others
			// (pg.timeout, where the loop also stores pg.conn = open(...)).
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
				if alloc, ok := fa.X.(*ssa.Alloc); ok {
					// The field and the struct are visited, not walked through: the struct's
					// other fields are not what this load reads.
					for _, y := range []ssa.Value{fa, alloc} {
						if !seen[y] {
							seen[y] = true
							visit(y)
						}
					}
					stack = append(stack, storedIn(alloc, fa.Field)...)
					continue
				}
			}
		}
		if instr, ok := x.(ssa.Instruction); ok {
			ops = instr.Operands(ops[:0])
			for _, op := range ops {
				if op != nil && *op != nil {
					stack = append(stack, *op)
				}
			}
		}
	}
}

// Bindings returns the values bound to a free variable by the closures that create its function.
func Bindings(fv *ssa.FreeVar) []ssa.Value {
	anon := fv.Parent()
	if anon == nil || anon.Parent() == nil {
		return nil
	}
	i := slices.Index(anon.FreeVars, fv)
	var out []ssa.Value
	for _, b := range anon.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == anon && i >= 0 && i < len(mc.Bindings) {
				out = append(out, mc.Bindings[i])
			}
		}
	}
	return out
}

// Encloses reports whether fn is outer or an anonymous function written inside it.
func Encloses(outer, fn *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		if fn == outer {
			return true
		}
	}
	return false
}

// Captured returns the value a closure's captured variable holds where the closure is made,
// through closures made in closures: v itself when it is not a captured variable, nil when
// the variable is bound to several values or has several stored into it. A variable the
// closure may assign is boxed: v is then a load of the box, and the value is the one stored.
func Captured(v ssa.Value) ssa.Value {
	for range 8 {
		switch x := Unwrap(v).(type) {
		case *ssa.FreeVar:
			b := Bindings(x)
			if len(b) != 1 {
				return nil
			}
			v = b[0]
			continue
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return x
			}
			box := x.X
			for range 8 {
				fv, ok := box.(*ssa.FreeVar)
				if !ok {
					break
				}
				b := Bindings(fv)
				if len(b) != 1 {
					return nil
				}
				box = b[0]
			}
			alloc, ok := box.(*ssa.Alloc)
			if !ok {
				return x
			}
			stored := Stored(alloc)
			if len(stored) != 1 || writtenInClosure(alloc, 0) {
				return nil
			}
			v = stored[0]
			continue
		default:
			return x
		}
	}
	return nil
}

// StoredWithClosures returns the values stored into the variable box: directly, and by the
// closures it is bound to (conn, err = dial(...) inside a retry callback), and closures made in
// them.
func StoredWithClosures(box ssa.Value) []ssa.Value {
	vals := Stored(box)
	closureStores(box, 0, func(st *ssa.Store) bool {
		vals = append(vals, st.Val)
		return true
	})
	return vals
}

// writtenInClosure reports whether a closure that box is bound to (or a closure made in one)
// stores into it.
func writtenInClosure(box ssa.Value, depth int) bool {
	written := false
	closureStores(box, depth, func(*ssa.Store) bool {
		written = true
		return false
	})
	return written
}

// closureStores calls yield with each store into box made by a closure box is bound to, or a
// closure made in one, until yield returns false; it reports whether it went through them all.
func closureStores(box ssa.Value, depth int, yield func(*ssa.Store) bool) bool {
	if depth > 4 || box.Referrers() == nil {
		return true
	}
	for _, r := range *box.Referrers() {
		mc, ok := r.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		fn, ok := mc.Fn.(*ssa.Function)
		if !ok {
			continue
		}
		for i, b := range mc.Bindings {
			if b != box || i >= len(fn.FreeVars) {
				continue
			}
			fv := fn.FreeVars[i]
			if refs := fv.Referrers(); refs != nil {
				for _, u := range *refs {
					if st, ok := u.(*ssa.Store); ok && st.Addr == fv && !yield(st) {
						return false
					}
				}
			}
			if !closureStores(fv, depth+1, yield) {
				return false
			}
		}
	}
	return true
}

// Stored returns the values stored into alloc directly or into its fields and elements.
func Stored(alloc ssa.Value) []ssa.Value { return storedIn(alloc, -1) }

// FieldStores returns the values stored into field of the struct alloc points to (and into
// the whole struct).
func FieldStores(alloc ssa.Value, field int) []ssa.Value { return storedIn(alloc, field) }

// StoredBefore returns the values that may be in the variable alloc when load reads it: the
// last value stored into it earlier in load's block when there is one (err = f(); if err !=
// nil reads what f returned, not what other calls stored), else every value stored into it.
func StoredBefore(alloc ssa.Value, load ssa.Instruction) []ssa.Value {
	b := load.Block()
	var last ssa.Value
	for _, instr := range b.Instrs {
		if instr == load {
			break
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == alloc {
			last = st.Val
		}
	}
	if last != nil {
		return []ssa.Value{last}
	}
	return Stored(alloc)
}

// storedIn returns the values stored into alloc directly, and into its field (every field and
// element when field < 0).
func storedIn(alloc ssa.Value, field int) []ssa.Value {
	var vals []ssa.Value
	refs := alloc.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == alloc {
				vals = append(vals, r.Val)
			}
		case *ssa.FieldAddr:
			if field < 0 || r.Field == field {
				vals = append(vals, Stored(r)...)
			}
		case *ssa.IndexAddr:
			if field < 0 {
				vals = append(vals, Stored(r)...)
			}
		}
	}
	return vals
}

// Elems returns the values of the variadic slice v when it is a slice of a local array built
// by the compiler (f(a, b, c)), by index; ok is false otherwise.
func Elems(v ssa.Value) (elems []ssa.Value, ok bool) {
	sl, isSlice := v.(*ssa.Slice)
	if !isSlice {
		if c, isConst := v.(*ssa.Const); isConst && c.IsNil() {
			return nil, true // f() with no variadic arguments
		}
		return nil, false
	}
	alloc, isAlloc := sl.X.(*ssa.Alloc)
	if !isAlloc {
		return nil, false
	}
	arr, isArr := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !isArr {
		return nil, false
	}
	elems = make([]ssa.Value, arr.Len())
	for _, r := range *alloc.Referrers() {
		ia, isIA := r.(*ssa.IndexAddr)
		if !isIA {
			continue
		}
		i, isConst := IntConst(ia.Index)
		if !isConst || i < 0 || i >= int64(len(elems)) {
			continue
		}
		for _, rr := range *ia.Referrers() {
			if st, isStore := rr.(*ssa.Store); isStore && st.Addr == ia {
				elems[i] = st.Val
			}
		}
	}
	return elems, true
}

// SliceElems returns the elements of a slice built in its function, as Elems does for the
// compiler's array of f(a, b), also through appends, make([]T, 0, n), nil, phis and a slice
// variable whose address is taken; ok is false when some come from elsewhere.
func SliceElems(v ssa.Value) (elems []ssa.Value, ok bool) {
	return sliceElems(v, 0, make(map[ssa.Value]bool))
}

func sliceElems(v ssa.Value, depth int, seen map[ssa.Value]bool) (elems []ssa.Value, ok bool) {
	if seen[v] {
		return nil, true
	}
	seen[v] = true
	if depth > 12 {
		return nil, false
	}
	if sl, ok := v.(*ssa.Slice); ok {
		if a, ok := sl.X.(*ssa.Alloc); ok && a.Comment == "makeslice" {
			return nil, true // make([]T, 0, n) with a constant n
		}
	}
	if es, ok := Elems(v); ok {
		if slices.Contains(es, nil) {
			return nil, false
		}
		return es, true
	}
	switch v := v.(type) {
	case *ssa.MakeSlice:
		// What is stored by index (urls[i] = ...), and appended where append is followed;
		// unknown when it is filled otherwise (copy(s[1:], peers), a function handed it).
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.IndexAddr:
				for _, rr := range *r.Referrers() {
					switch rr := rr.(type) {
					case *ssa.Store:
						if rr.Addr != r {
							return nil, false
						}
						elems = append(elems, rr.Val)
					case *ssa.UnOp, *ssa.DebugRef:
					default:
						return nil, false
					}
				}
			case *ssa.Return, *ssa.DebugRef, *ssa.Phi:
			case *ssa.Call:
				if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" && b.Name() != "cap" && b.Name() != "append" {
					return nil, false
				}
			default:
				return nil, false
			}
		}
		return elems, true
	case *ssa.Phi:
		for _, e := range v.Edges {
			es, ok := sliceElems(e, depth+1, seen)
			if !ok {
				return nil, false
			}
			elems = append(elems, es...)
		}
		return elems, true
	case *ssa.Call:
		if b, isBuiltin := v.Call.Value.(*ssa.Builtin); isBuiltin && b.Name() == "append" && len(v.Call.Args) == 2 {
			for _, a := range v.Call.Args {
				es, ok := sliceElems(a, depth+1, seen)
				if !ok {
					return nil, false
				}
				elems = append(elems, es...)
			}
			return elems, true
		}
	case *ssa.UnOp:
		// A slice variable whose address is taken (captured by a closure): what is stored.
		if alloc, isAlloc := v.X.(*ssa.Alloc); isAlloc && v.Op == token.MUL {
			for _, s := range Stored(alloc) {
				es, ok := sliceElems(s, depth+1, seen)
				if !ok {
					return nil, false
				}
				elems = append(elems, es...)
			}
			return elems, true
		}
	}
	return nil, false
}

// CallbackArgs returns the values the package passes for p, a parameter of a function
// literal, where it sees the calls of that function value: called where it is made, or handed
// as an argument to functions of the package that call it or hand it on in turn
// (c.do(ctx, func(r *Request) ... ) and, in do, fn(c.newRequest(ctx))), through conversions
// to a named function type. It returns nil when the value goes anywhere else (stored,
// returned, handed to another package, captured by a closure): callers the walk cannot see.
func CallbackArgs(p *ssa.Parameter) []ssa.Value {
	anon := p.Parent()
	if anon == nil || anon.Parent() == nil {
		return nil
	}
	idx := slices.Index(anon.Params, p)
	if idx < 0 {
		return nil
	}
	var vals []ssa.Value
	if len(anon.FreeVars) == 0 {
		vals = append(vals, anon)
	} else {
		for _, b := range anon.Parent().Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == anon {
					vals = append(vals, mc)
				}
			}
		}
	}
	var out []ssa.Value
	seen := make(map[ssa.Value]bool)
	for depth := 0; len(vals) > 0; depth++ {
		if depth == 6 {
			return nil
		}
		var next []ssa.Value
		for _, v := range vals {
			if seen[v] {
				continue
			}
			seen[v] = true
			if v.Referrers() == nil {
				return nil
			}
			for _, r := range *v.Referrers() {
				switch r := r.(type) {
				case *ssa.DebugRef:
					continue
				case *ssa.ChangeType:
					next = append(next, r) // a named function type (type requestFunc func(...))
					continue
				case ssa.CallInstruction:
					c := r.Common()
					if c.Value == v && !c.IsInvoke() {
						if idx >= len(c.Args) {
							return nil
						}
						out = append(out, c.Args[idx])
						continue
					}
					g := c.StaticCallee()
					if c.IsInvoke() || g == nil || len(g.Blocks) == 0 || g.Pkg != anon.Pkg {
						return nil
					}
					for j, a := range c.Args {
						if a != v {
							continue
						}
						if j >= len(g.Params) {
							return nil
						}
						next = append(next, g.Params[j])
					}
					continue
				}
				return nil // stored, returned, captured, sent: called where the walk cannot see
			}
		}
		vals = next
	}
	return out
}
