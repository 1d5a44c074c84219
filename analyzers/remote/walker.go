package remote

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// The walks follow SSA values backward from a remote call to where they are made: a context
// to context.Background or context.WithTimeout (contexts.go), a request to http.NewRequest
// (requests.go), a client to its composite literal (clients.go). They look through phis,
// conversions, local variables, the results of functions of the same package (whose
// parameters are then mapped to the call's arguments) and, for clients and dialers, struct
// fields and package variables assigned in the package. Whatever else they meet (a parameter
// of a function of another package, a field set elsewhere, a call of another package) makes
// the verdict "unknown", which the checks treat as handled.

// A frame maps the parameters of a function the walk entered through its results to the
// arguments of the call.
type frame struct {
	fn     *ssa.Function
	args   []ssa.Value
	parent *frame
	depth  int
}

const (
	maxSteps = 512 // values visited per walk
	maxDepth = 4   // nested function results entered
)

type role uint8

const (
	roleCtx role = iota
	roleReq
	roleObj
	roleLoad
)

type walkKey struct {
	v    ssa.Value
	f    *frame
	role role
	t    *objType
}

// A walker evaluates the values of the calls of one function.
type walker struct {
	st    *state
	top   *ssa.Function
	seen  map[walkKey]bool
	steps int
}

func (st *state) walker(fn *ssa.Function) *walker {
	return &walker{st: st, top: fn, seen: make(map[walkKey]bool)}
}

// enter marks v visited in this role; when it was already (a cycle) it returns none, when the
// budget is spent, unknown.
func (w *walker) enter(v ssa.Value, f *frame, r role, t *objType) (verdict, bool) {
	k := walkKey{v, f, r, t}
	if w.seen[k] {
		return none, false
	}
	if w.steps >= maxSteps {
		return unknown, false
	}
	w.seen[k] = true
	w.steps++
	return verdict{}, true
}

// str returns the constant string v, following parameters to the arguments of entered calls.
func (w *walker) str(v ssa.Value, f *frame, depth int) string {
	if s, ok := flow.StringConst(v); ok {
		return s
	}
	if p, ok := flow.Unwrap(v).(*ssa.Parameter); ok && f != nil && p.Parent() == f.fn && depth < 16 {
		if i := slices.Index(f.fn.Params, p); i >= 0 && i < len(f.args) {
			return w.str(f.args[i], f.parent, depth+1)
		}
	}
	return ""
}

// freeVar evaluates a variable captured by a closure through the values bound to it where the
// closure is made.
func (w *walker) freeVar(fv *ssa.FreeVar, eval func(ssa.Value) verdict) verdict {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	parent := fn.Parent()
	if i < 0 || parent == nil {
		return unknown
	}
	r := none
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
				r = join(r, eval(mc.Bindings[i]))
			}
		}
	}
	if r.k == vNone {
		return unknown
	}
	return r
}

// param evaluates a parameter: in an entered function, the call's argument; in the analysed
// function itself, a dependency on the caller.
func (w *walker) param(p *ssa.Parameter, f *frame, req bool, eval func(ssa.Value, *frame) verdict) verdict {
	if f != nil {
		if p.Parent() == f.fn {
			if i := slices.Index(f.fn.Params, p); i >= 0 && i < len(f.args) {
				return eval(f.args[i], f.parent)
			}
		}
		return unknown
	}
	if p.Parent() == w.top {
		return verdict{k: vParam, param: slices.Index(w.top.Params, p), req: req}
	}
	return unknown
}

func (w *walker) edges(phi *ssa.Phi, f *frame, eval func(ssa.Value, *frame) verdict) verdict {
	r := none
	for _, e := range phi.Edges {
		r = join(r, eval(e, f))
	}
	return r
}

func (w *walker) stored(a *ssa.Alloc, f *frame, eval func(ssa.Value, *frame) verdict) verdict {
	r := none
	for _, s := range flow.Stored(a) {
		r = join(r, eval(s, f))
	}
	if r.k == vNone {
		return unknown
	}
	return r
}

// results evaluates result idx of a call of a function of this package through its return
// statements, mapping its parameters to the call's arguments.
func (w *walker) results(c *ssa.CallCommon, idx int, f *frame, eval func(ssa.Value, *frame) verdict) verdict {
	callee := c.StaticCallee()
	if callee == nil || callee.Pkg != w.st.pkg || len(callee.Blocks) == 0 || f != nil && f.depth >= maxDepth {
		return unknown
	}
	nf := newFrame(callee, c, f)
	r := none
	for _, b := range callee.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || idx >= len(ret.Results) {
			continue
		}
		if flow.IsZero(ret.Results[idx]) {
			continue // return nil, err
		}
		r = join(r, eval(ret.Results[idx], nf))
	}
	if r.k == vNone {
		return unknown
	}
	return r
}

func newFrame(callee *ssa.Function, c *ssa.CallCommon, parent *frame) *frame {
	depth := 1
	if parent != nil {
		depth = parent.depth + 1
	}
	return &frame{fn: callee, args: c.Args, parent: parent, depth: depth}
}
