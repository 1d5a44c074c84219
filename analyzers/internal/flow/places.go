package flow

import (
	"go/token"
	"go/types"
	"iter"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Place is where a value is kept, named by structure: a root value (a local variable's
// allocation, a parameter, a call's result) followed by field selections (".3" selects field
// 3) and loads ("*"). Two loads of the same variable or field are the same place, whichever
// instruction reads them.
type Place struct {
	Root ssa.Value
	Path string
}

// PlaceOf returns the place an address or value denotes, looking through conversions.
func PlaceOf(v ssa.Value) Place {
	var steps []string
	for range 32 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			steps, v = append(steps, "."+strconv.Itoa(x.Field)), x.X
			continue
		case *ssa.Field:
			steps, v = append(steps, "."+strconv.Itoa(x.Field)), x.X
			continue
		case *ssa.UnOp:
			if x.Op == token.MUL {
				steps, v = append(steps, "*"), x.X
				continue
			}
		case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.ChangeInterface:
			v = Unwrap(v)
			continue
		}
		break
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteString(steps[i])
	}
	return Place{Root: v, Path: b.String()}
}

// SpilledParam returns the parameter whose value a holds when a is the variable the compiler
// makes for a parameter whose address is taken or that the function assigns to (func f(o
// Options) { o.Log = ...; use(o.Timeout) }): its entry block stores the parameter into it.
// It returns nil otherwise.
func SpilledParam(a ssa.Value) *ssa.Parameter {
	alloc, ok := a.(*ssa.Alloc)
	if !ok || alloc.Block() == nil || alloc.Block().Index != 0 {
		return nil
	}
	for _, r := range *alloc.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc && st.Block().Index == 0 {
			if p, ok := st.Val.(*ssa.Parameter); ok && p.Parent() == alloc.Parent() && p.Pos().IsValid() && p.Pos() == alloc.Pos() {
				return p
			}
		}
	}
	return nil
}

// SameAddr reports whether two addresses are the same variable or the same field of the same
// struct (two FieldAddr instructions of one base).
func SameAddr(x, y ssa.Value) bool {
	if x == y {
		return true
	}
	fx, ok1 := x.(*ssa.FieldAddr)
	fy, ok2 := y.(*ssa.FieldAddr)
	return ok1 && ok2 && fx.Field == fy.Field && fx.X == fy.X
}

// SameValue reports whether v is target, a conversion of it, or a load of a local variable
// that only target is stored into (how SSA represents a captured variable).
func SameValue(v, target ssa.Value) bool {
	v = Unwrap(v)
	if v == target {
		return true
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	return IsBoxOf(load.X, target)
}

// IsBoxOf reports whether addr is a local variable that only target is stored into.
func IsBoxOf(addr, target ssa.Value) bool {
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	stored := Stored(alloc)
	if len(stored) == 0 {
		return false
	}
	for _, s := range stored {
		if Unwrap(s) != target {
			return false
		}
	}
	return true
}

// FieldLoad returns, when v is a load of a struct field (*fa), the load and the field's
// address; nil, nil otherwise.
func FieldLoad(v ssa.Value) (*ssa.UnOp, *ssa.FieldAddr) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, nil
	}
	return load, fa
}

// FieldVar returns the struct field that fa addresses, or nil.
func FieldVar(fa *ssa.FieldAddr) *types.Var {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field).Origin()
}

// OwnField returns the field that v loads (*fa, once unwrapped) when it is an unexported field
// of a struct type of package pkg: no other package can store into it. nil otherwise.
func OwnField(v ssa.Value, pkg *types.Package) *types.Var {
	_, fa := FieldLoad(Unwrap(v))
	if fa == nil {
		return nil
	}
	fv := FieldVar(fa)
	if fv == nil || fv.Exported() || fv.Pkg() != pkg {
		return nil
	}
	return fv
}

// CallersValue reports whether v, a value stored somewhere, is a parameter of a function other
// packages can call by name (Callable), directly or captured by a closure made there (an
// option: func WithClient(c Client) Option { return func(o *opts) { o.client = c } }): a value
// the package's users give.
func CallersValue(v ssa.Value) bool {
	p, ok := Unwrap(Captured(Unwrap(v))).(*ssa.Parameter)
	return ok && Callable(Root(p.Parent()))
}

// Given reports whether x, a struct or a pointer to one, is a parameter, or a local copy of
// one (options passed by value, a parameter the function changes or takes the address of), so
// that its fields are what a caller gives.
func Given(x ssa.Value) bool {
	switch x := x.(type) {
	case *ssa.Parameter:
		return true
	case *ssa.Alloc:
		copied := false
		for _, r := range *x.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == x {
				if _, ok := st.Val.(*ssa.Parameter); !ok {
					return false
				}
				copied = true
			}
		}
		return copied
	}
	return false
}

// TestsAbove yields the branches that end the blocks dominating b, nearest first, each with
// the index of its successor that dominates b (the side b runs on), or -1 when neither does
// (the two sides meet again before b).
func TestsAbove(b *ssa.BasicBlock) iter.Seq2[*ssa.If, int] {
	return func(yield func(*ssa.If, int) bool) {
		for d := b.Idom(); d != nil; d = d.Idom() {
			ifInstr, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			side := -1
			for i, s := range d.Succs {
				if s.Dominates(b) {
					side = i
				}
			}
			if !yield(ifInstr, side) {
				return
			}
		}
	}
}

// GuardedBySet reports whether block b runs only when the value at place is set: a dominator
// of b ends in a test of that place against its zero value (!= nil, != 0, > 0) whose true side
// dominates b (if cfg.Timeout != 0 { c.Timeout = cfg.Timeout }).
func GuardedBySet(b *ssa.BasicBlock, place Place) bool {
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifInstr, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.NEQ && cmp.Op != token.GTR {
			continue
		}
		x, y := cmp.X, cmp.Y
		if IsZero(x) {
			x, y = y, x
		}
		if IsZero(y) && PlaceOf(Unwrap(x)) == place && d.Succs[0].Dominates(b) {
			return true
		}
	}
	return false
}

// Before reports whether instruction a runs before b in their function: earlier in the same
// block, or in a block that dominates b's.
func Before(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == nil || bb == nil {
		return false
	}
	if ab != bb {
		return ab.Dominates(bb)
	}
	for _, in := range ab.Instrs {
		switch in {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// FieldOwner returns the package-level type whose struct declares field fv, or nil (a field
// of an anonymous struct, or of a type declared in a function).
func FieldOwner(fv *types.Var) *types.TypeName {
	if fv == nil || !fv.IsField() || fv.Pkg() == nil {
		return nil
	}
	scope := fv.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if str, ok := tn.Type().Underlying().(*types.Struct); ok {
			for f := range str.Fields() {
				if f == fv {
					return tn
				}
			}
		}
	}
	return nil
}
