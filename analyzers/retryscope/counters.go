package retryscope

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
)

// Counters kept by a type: a method returns a field of its receiver (b.Attempt() returns
// b.attempt), and other methods of the type step that field (b.Duration() adds one). A loop
// that calls a stepping method each round and leaves when the returned value reaches a limit
// counts its rounds, as one that steps a local counter does (jpillora/backoff's Backoff, and
// the same shape written in a program).

// counterFact marks an exported method that returns a counter its receiver keeps, with the
// names of the methods of its type that step it.
type counterFact struct{ SteppedBy []string }

func (*counterFact) AFact() {}

func (f *counterFact) String() string {
	return "returns a counter stepped by " + fmt.Sprint(f.SteppedBy)
}

// steppedCounter reports whether v is computed from the counter a method returns (r.Attempt())
// and the loop calls, on the same receiver, one of the methods that step it.
func (st *state) steppedCounter(v ssa.Value, l *loops.Loop) bool {
	found := false
	flow.Backward(v, 16, func(x ssa.Value) bool {
		call, ok := x.(*ssa.Call)
		if !ok {
			return !found
		}
		c := call.Common()
		callee := c.StaticCallee()
		if callee == nil || c.IsInvoke() || len(c.Args) == 0 || callee.Signature.Recv() == nil {
			return false
		}
		steppers := st.counterSteppers(callee)
		if len(steppers) == 0 {
			return false
		}
		recv := flow.PlaceOf(c.Args[0])
		for _, b := range l.Blocks(call.Parent()) {
			for _, instr := range b.Instrs {
				other, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				oc := other.Common()
				if sc := oc.StaticCallee(); sc != nil && sc.Signature.Recv() != nil && len(oc.Args) > 0 &&
					slices.Contains(steppers, sc.Name()) && flow.PlaceOf(oc.Args[0]) == recv && flow.RecvNamed(sc) == flow.RecvNamed(callee) {
					found = true
				}
			}
		}
		return false
	})
	return found
}

// counterSteppers returns, for a method that returns a counter its receiver keeps, the names
// of the methods of its type that step it: from the package's code, or from the fact of
// another package's method.
func (st *state) counterSteppers(fn *ssa.Function) []string {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil
	}
	if obj.Pkg() != st.pass.Pkg {
		var f counterFact
		if obj.Pkg() == nil || !st.pass.ImportObjectFact(obj, &f) {
			return nil
		}
		return f.SteppedBy
	}
	if st.counters == nil {
		st.counters = make(map[*ssa.Function][]string)
	}
	if s, ok := st.counters[fn]; ok {
		return s
	}
	var steppers []string
	if fv := returnedCounter(fn); fv != nil {
		named := flow.RecvNamed(fn)
		for _, m := range st.funcs {
			if m != fn && m.Signature.Recv() != nil && flow.RecvNamed(m) == named && steps(m, fv) {
				steppers = append(steppers, m.Name())
			}
		}
	}
	st.counters[fn] = steppers
	return steppers
}

// exportCounters exports a counterFact for the exported methods of the package that return
// a counter their type's methods step.
func (st *state) exportCounters() {
	for _, fn := range st.funcs {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Exported() && obj.Pkg() == st.pass.Pkg && fn.Signature.Recv() != nil {
			if s := st.counterSteppers(fn); len(s) > 0 {
				st.pass.ExportObjectFact(obj, &counterFact{SteppedBy: s})
			}
		}
	}
}

// returnedCounter returns the integer field of its receiver that method fn, with one numeric
// result, returns on every path (loaded directly or atomically, converted or not), or nil.
func returnedCounter(fn *ssa.Function) *types.Var {
	if fn.Signature.Results().Len() != 1 || len(fn.Params) == 0 || len(fn.Blocks) == 0 || len(fn.Blocks) > 4 {
		return nil
	}
	if b, ok := fn.Signature.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsNumeric == 0 {
		return nil
	}
	recv := fn.Params[0]
	var field *types.Var
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		fv := recvField(flow.Unwrap(ret.Results[0]), recv)
		if fv == nil || field != nil && fv != field {
			return nil
		}
		field = fv
	}
	if field == nil || !isInteger(field.Type()) {
		return nil
	}
	return field
}

// recvField returns the field of recv that v loads (recv.n, atomic.LoadUint64(&recv.n),
// recv.n.Load()), or nil.
func recvField(v ssa.Value, recv *ssa.Parameter) *types.Var {
	var fa *ssa.FieldAddr
	switch x := v.(type) {
	case *ssa.UnOp:
		_, fa = flow.FieldLoad(x)
	case *ssa.Call:
		if atomicAccess(x.Common(), "Load") {
			fa, _ = flow.Unwrap(x.Call.Args[0]).(*ssa.FieldAddr)
		}
	}
	if fa == nil || fa.X != recv {
		return nil
	}
	return flow.FieldVar(fa)
}

// steps reports whether method m adds to or subtracts from field fv of its receiver: a store
// of the field's value plus or minus something, or an atomic Add on it.
func steps(m *ssa.Function, fv *types.Var) bool {
	if len(m.Params) == 0 {
		return false
	}
	recv := m.Params[0]
	for _, b := range m.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				fa, ok := x.Addr.(*ssa.FieldAddr)
				if !ok || fa.X != recv || flow.FieldVar(fa) != fv {
					continue
				}
				if bin, ok := x.Val.(*ssa.BinOp); ok && (bin.Op == token.ADD || bin.Op == token.SUB) &&
					(recvField(bin.X, recv) == fv || recvField(bin.Y, recv) == fv) {
					return true
				}
			case *ssa.Call:
				if atomicAccess(x.Common(), "Add") {
					if fa, ok := flow.Unwrap(x.Call.Args[0]).(*ssa.FieldAddr); ok && fa.X == recv && flow.FieldVar(fa) == fv {
						return true
					}
				}
			}
		}
	}
	return false
}

// isInteger reports whether t is an integer type or a typed atomic integer.
func isInteger(t types.Type) bool {
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Info()&types.IsInteger != 0
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync/atomic" && slices.Contains([]string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr"}, n.Obj().Name())
}
