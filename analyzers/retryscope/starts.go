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

// joinsFact marks a method that waits for a sync.WaitGroup (errgroup's Group.Wait): a caller
// that starts work with a method of the same value and then calls this one waits for it.
type joinsFact struct{}

func (*joinsFact) AFact() {}

func (*joinsFact) String() string { return "waits for the work it started" }

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
		if _, debug := ref.(*ssa.DebugRef); debug {
			continue
		}
		if c, ok := ref.(*ssa.Call); !ok || c.Call.Value != v {
			return false
		}
	}
	return true
}

// exportStarts exports a startsFact for the package's functions that start a parameter, and
// a joinsFact for its methods that wait for a WaitGroup.
func (st *state) exportStarts() {
	st.starts = make(map[*ssa.Function][]int)
	st.joins = make(map[*ssa.Function]bool)
	for _, fn := range st.funcs {
		obj, named := fn.Object().(*types.Func)
		if ps := startedParams(fn); len(ps) > 0 {
			st.starts[fn] = ps
			if named {
				st.export(obj, &startsFact{Params: ps})
			}
		}
		if fn.Signature.Recv() != nil && waitsGroup(fn) {
			st.joins[fn] = true
			if named {
				st.export(obj, &joinsFact{})
			}
		}
	}
}

// waitsGroup reports whether fn, or a literal in it, calls sync.WaitGroup's Wait.
func waitsGroup(fn *ssa.Function) bool {
	return slices.ContainsFunc(slices.Collect(flow.Calls(fn)), flow.WaitGroupWait) || slices.ContainsFunc(fn.AnonFuncs, waitsGroup)
}

// joinedLater reports whether the function making call, which starts work with a method of a
// value, also calls a method of that same value that waits for it (g.Go(f); ...; g.Wait()).
func (st *state) joinedLater(call ssa.CallInstruction) bool {
	cc := call.Common()
	if cc.Signature().Recv() == nil || len(cc.Args) == 0 {
		return false
	}
	at := flow.PlaceOf(cc.Args[0])
	for other := range flow.Calls(call.Parent()) {
		oc := other.Common()
		if other == call || oc.IsInvoke() || oc.Signature().Recv() == nil || len(oc.Args) == 0 || flow.PlaceOf(oc.Args[0]) != at {
			continue
		}
		if callee := oc.StaticCallee(); callee != nil && callee.Pkg == st.ssaPkg {
			if st.joins[callee] {
				return true
			}
			continue
		}
		var f joinsFact
		if obj := flow.Callee(oc); obj != nil && obj.Pkg() != nil && obj.Pkg() != st.pass.Pkg && st.pass.ImportObjectFact(obj, &f) {
			return true
		}
	}
	return false
}

// detached reports whether fn runs apart from its caller: a function literal (or one it is
// nested in) started by a go statement not waited for, or handed to a function that starts
// that parameter in the background (a runner of this package, or of another through its
// startsFact) when the caller does not then wait for the runner (joinedLater).
func (st *state) detached(fn *ssa.Function) bool {
	return flow.DetachedBy(fn, st.startsArg)
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
			return !st.joinedLater(call)
		}
	}
	return false
}
