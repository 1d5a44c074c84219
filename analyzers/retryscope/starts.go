package retryscope

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Work started in the background: a function value handed to a runner that calls it in a
// goroutine it does not wait for (p.proc.Run(func(ctx) { ... }), a pool's background filler)
// runs apart from its caller, as a go statement's does. A retry loop there is not a layer of
// the caller's attempts: the caller neither waits for it nor sees its failures.

// startsFact marks a function that calls the function values of parameters Params (indices
// into its parameters, receiver included) only in goroutines it does not wait for.
type startsFact struct{ Params []int }

func (*startsFact) AFact() {}

func (f *startsFact) String() string {
	return fmt.Sprintf("starts parameters %v in the background", f.Params)
}

// startedParams returns the indices of fn's func-typed parameters that fn calls only from a
// goroutine it does not wait for (go func() { f(ctx) }(), go f(ctx)), and uses in no other way.
func startedParams(fn *ssa.Function) []int {
	var out []int
	for i, p := range fn.Params {
		if _, ok := p.Type().Underlying().(*types.Signature); !ok || p.Referrers() == nil {
			continue
		}
		started := false
		ok := true
		for _, ref := range *p.Referrers() {
			switch r := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.Go:
				if r.Call.Value != p || flow.Awaited(r) {
					ok = false
				}
				started = true
			case *ssa.MakeClosure:
				// Captured by a literal that runs detached and only calls it there.
				if !startsCaptured(r, p, false) {
					ok = false
				}
				started = true
			case *ssa.Store:
				// Captured by reference (go func() { fn(ctx) }() boxes fn): the box is only
				// captured so, and never written again.
				box, isAlloc := r.Addr.(*ssa.Alloc)
				if !isAlloc || r.Val != p {
					ok = false
					break
				}
				for _, bref := range *box.Referrers() {
					switch b := bref.(type) {
					case *ssa.DebugRef:
					case *ssa.Store:
						if b != r {
							ok = false
						}
					case *ssa.MakeClosure:
						if !startsCaptured(b, box, true) {
							ok = false
						}
						started = true
					default:
						ok = false
					}
				}
			default:
				ok = false
			}
		}
		if ok && started {
			out = append(out, i)
		}
	}
	return out
}

// startsCaptured reports whether closure mc, which captures v (its box, when boxed), runs
// detached and only calls v there (loaded from the box first, when boxed).
func startsCaptured(mc *ssa.MakeClosure, v ssa.Value, boxed bool) bool {
	anon := mc.Fn.(*ssa.Function)
	at := slices.Index(mc.Bindings, v)
	if at < 0 || !flow.Detached(anon) {
		return false
	}
	fv := anon.FreeVars[at]
	if !boxed {
		return onlyCalled(fv)
	}
	for _, ref := range *fv.Referrers() {
		if _, debug := ref.(*ssa.DebugRef); debug {
			continue
		}
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || !onlyCalled(load) {
			return false
		}
	}
	return true
}

// onlyCalled reports whether v is used only as the function a call calls.
func onlyCalled(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		c, ok := ref.(*ssa.Call)
		if _, debug := ref.(*ssa.DebugRef); debug {
			continue
		}
		if !ok || c.Call.Value != v {
			return false
		}
	}
	return true
}

// exportStarts exports a startsFact for the package's functions that start a parameter.
func (st *state) exportStarts() {
	st.starts = make(map[*ssa.Function][]int)
	for _, fn := range st.funcs {
		if ps := startedParams(fn); len(ps) > 0 {
			st.starts[fn] = ps
			if obj, ok := fn.Object().(*types.Func); ok {
				st.export(obj, &startsFact{Params: ps})
			}
		}
	}
}

// detached reports whether fn runs apart from its caller: started by a go statement not
// waited for (flow.Detached), or, it or a literal it is nested in, handed to a function that
// starts that parameter in the background (a runner of this package, or of another through
// its startsFact).
func (st *state) detached(fn *ssa.Function) bool {
	if flow.Detached(fn) {
		return true
	}
	for f := fn; f != nil && f.Parent() != nil; f = f.Parent() {
		for _, ref := range *f.Referrers() {
			v := ssa.Value(f)
			if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == f {
				v = mc
				for _, r := range *mc.Referrers() {
					if c, ok := r.(ssa.CallInstruction); ok && st.startsArg(c, v) {
						return true
					}
				}
				continue
			}
			if c, ok := ref.(ssa.CallInstruction); ok && st.startsArg(c, v) {
				return true
			}
		}
	}
	return false
}

// startsArg reports whether call hands v to a parameter its callee starts in the background.
func (st *state) startsArg(call ssa.CallInstruction, v ssa.Value) bool {
	cc := call.Common()
	if cc.IsInvoke() {
		return false
	}
	var params []int
	if callee := cc.StaticCallee(); callee != nil && callee.Pkg == st.ssaPkg {
		params = st.starts[callee]
	} else if obj := flow.Callee(cc); obj != nil && obj.Pkg() != nil && obj.Pkg() != st.pass.Pkg {
		var f startsFact
		if st.pass.ImportObjectFact(obj, &f) {
			params = f.Params
		}
	}
	for _, i := range params {
		if i < len(cc.Args) && cc.Args[i] == v {
			return true
		}
	}
	return false
}
