package remote

import (
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// The walks follow SSA values backward from a remote call to where they are made: a context
// to context.Background or context.WithTimeout (contexts.go), a request to http.NewRequest
// (requests.go), a client to its composite literal (clients.go). They look through phis,
// conversions, local variables, the results of functions of the same package (whose
// parameters are then mapped to the call's arguments) and, for clients and dialers, struct
// fields and package variables assigned in the package. Whatever else they meet (a parameter
// of a function of another package, a field set elsewhere, a call of another package) makes
// the verdict "unknown", which the checks treat as handled. A call of an unexported hook
// variable nothing in the package sets in this build is no path at all (nilFuncVar).

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
	t    *knowledge.ClientType
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

// value starts the evaluation of v in a role: it looks through conversions and marks v
// visited. It returns false, and the verdict to stop with, when v is nil (unknown), was
// visited already (a cycle: none) or the budget is spent (unknown).
func (w *walker) value(v ssa.Value, f *frame, r role, t *knowledge.ClientType) (ssa.Value, verdict, bool) {
	if v == nil {
		return nil, unknown, false
	}
	v = flow.Unwrap(v)
	res, ok := w.enter(v, f, r, t)
	return v, res, ok
}

// enter marks v visited in this role; when it was already (a cycle) it returns none, when the
// budget is spent, unknown.
func (w *walker) enter(v ssa.Value, f *frame, r role, t *knowledge.ClientType) (verdict, bool) {
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

// str returns the constant string v, following parameters to the arguments of entered calls
// and variables that hold the same constant on every path (a phi of "POST" and "POST").
func (w *walker) str(v ssa.Value, f *frame, depth int) string {
	if s, ok := flow.StringConst(v); ok {
		return s
	}
	if depth >= 16 {
		return ""
	}
	switch x := flow.Unwrap(v).(type) {
	case *ssa.Parameter:
		if a, ok := f.arg(x); ok {
			return w.str(a, f.parent, depth+1)
		}
	case *ssa.Phi:
		return sameOnEvery(x.Edges, func(e ssa.Value) string { return w.str(e, f, depth+1) })
	}
	return ""
}

// sameOnEvery returns the text that of gives for every one of vals, "" when one gives none or
// two differ.
func sameOnEvery(vals []ssa.Value, of func(ssa.Value) string) string {
	s := ""
	for i, v := range vals {
		t := of(v)
		if t == "" || i > 0 && t != s {
			return ""
		}
		s = t
	}
	return s
}

// follow evaluates the ways any value is handed on within and between functions: as the
// result of a call (evaluated by call), through a phi, a parameter, a local variable or a
// closure's captured variable.
// Anything else is unknown.
func (w *walker) follow(v ssa.Value, f *frame, req bool, call func(c *ssa.CallCommon, idx int, f *frame) verdict, eval func(ssa.Value, *frame) verdict) verdict {
	switch v := v.(type) {
	case *ssa.Call:
		return call(v.Common(), 0, f)
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			return call(c.Common(), v.Index, f)
		}
	case *ssa.Phi:
		return joinEach(v.Edges, func(e ssa.Value) verdict { return eval(e, f) })
	case *ssa.Parameter:
		return w.param(v, f, req, eval)
	case *ssa.UnOp:
		if a, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			return w.stored(a, f, eval)
		}
		if _, ok := v.X.(*ssa.FreeVar); ok && v.Op == token.MUL && f == nil {
			// A variable a closure captured by reference (a retry callback sending the
			// request its maker built): the one value stored into it.
			if c := flow.Captured(v); c != nil && c != ssa.Value(v) {
				return eval(c, nil)
			}
			return w.byRef(v.X.(*ssa.FreeVar), func(s ssa.Value) verdict { return eval(s, nil) })
		}
	case *ssa.FreeVar:
		if f == nil {
			// Captured by value: what its makers bind.
			return w.freeVar(v, func(b ssa.Value) verdict { return eval(b, nil) })
		}
	}
	return unknown
}

// joinEach joins eval over the values something may hold; none when there are none.
func joinEach(vals []ssa.Value, eval func(ssa.Value) verdict) verdict {
	r := none
	for _, v := range vals {
		r = join(r, eval(v))
	}
	return r
}

// known turns "nothing found" (no values, or only cycles) into unknown.
func known(r verdict) verdict {
	if r.k == vNone {
		return unknown
	}
	return r
}

// freeVar evaluates a variable captured by a closure through the values bound to it where the
// closure is made.
func (w *walker) freeVar(fv *ssa.FreeVar, eval func(ssa.Value) verdict) verdict {
	return known(joinEach(flow.Bindings(fv), eval))
}

// byRef evaluates a variable a closure captured by reference through every value stored into
// it, where the closure is made and by the closures it is bound to (ctx, cancel :=
// context.WithCancel(ctx); go func() { loop(ctx) }()).
func (w *walker) byRef(fv *ssa.FreeVar, eval func(ssa.Value) verdict) verdict {
	return w.freeVar(fv, func(box ssa.Value) verdict {
		if r, ok := w.enter(box, nil, roleLoad, nil); !ok {
			return r
		}
		return known(joinEach(flow.StoredWithClosures(box), eval))
	})
}

// param evaluates a parameter: in an entered function, the call's argument; in the analysed
// function itself, a dependency on the caller.
func (w *walker) param(p *ssa.Parameter, f *frame, req bool, eval func(ssa.Value, *frame) verdict) verdict {
	if f != nil {
		if a, ok := f.arg(p); ok {
			return eval(a, f.parent)
		}
		return unknown
	}
	if p.Parent() == w.top {
		return verdict{k: vParam, param: slices.Index(w.top.Params, p), req: req}
	}
	if flow.Encloses(p.Parent(), w.top) && (req || typeis.Context(p.Type())) {
		// A context the function literal captured from a function it is made in: that
		// function's callers decide, as they do for its own calls (run.GoWait(&wg, func() {
		// s.deliver(ctx) }); errgroup's g.Go).
		return verdict{k: vParam, param: slices.Index(p.Parent().Params, p), req: req, kept: p.Parent(), captured: true}
	}
	return unknown
}

// given evaluates a parameter of another function of the package, reached through what the
// package stores (a constructor storing the client it is given into a field): the clients the package's own
// calls pass (NewBotAPI passing &http.Client{} to NewBotAPIWithClient), and, when other
// packages may call the function (exported, or used as a value), the caller's choice, with
// which a client without a timeout is the default the caller may replace (Origin.Fallback).
func (w *walker) given(p *ssa.Parameter, eval func(ssa.Value, *frame) verdict) verdict {
	args, onlyThese := w.st.argsGiven(p)
	r := none
	for _, a := range args {
		r = joinClients(r, eval(a, nil))
	}
	if !onlyThese {
		r = join(r, caller(p.Pos()))
	}
	return known(r)
}

// stored evaluates a local variable through the values stored into it. Every load of it
// reads them: a cycle through another load (ctx, cancel = context.WithCancel(ctx)) closes
// here.
func (w *walker) stored(a *ssa.Alloc, f *frame, eval func(ssa.Value, *frame) verdict) verdict {
	if r, ok := w.enter(a, f, roleLoad, nil); !ok {
		return r
	}
	return known(joinEach(flow.Stored(a), func(s ssa.Value) verdict { return eval(s, f) }))
}

// results evaluates result idx of a call of a function of this package through its return
// statements, mapping its parameters to the call's arguments.
func (w *walker) results(c *ssa.CallCommon, idx int, f *frame, eval func(ssa.Value, *frame) verdict) verdict {
	if w.st.nilFuncVar(c.Value) {
		return none // a hook nothing sets in this build (x/oauth2's appengineClientHook): never called
	}
	nf := w.enterCall(c, f)
	if nf == nil {
		return unknown
	}
	r := none
	for v := range returned(nf.fn, idx) {
		r = join(r, eval(v, nf))
	}
	return known(r)
}

// returned yields result idx of the return statements of fn, but for zero values (the nil of
// return nil, err).
func returned(fn *ssa.Function, idx int) iter.Seq[ssa.Value] {
	return func(yield func(ssa.Value) bool) {
		for ret := range flow.Returns(fn) {
			if idx < len(ret.Results) && !flow.IsZero(ret.Results[idx]) && !yield(ret.Results[idx]) {
				return
			}
		}
	}
}

// enterCall returns the frame in which to evaluate the results of the function c calls, or
// nil when it is not a function of this package or the walk is already deep enough.
func (w *walker) enterCall(c *ssa.CallCommon, parent *frame) *frame {
	callee := c.StaticCallee()
	if callee == nil {
		callee = w.st.funcVar(c.Value)
	}
	if callee == nil {
		callee = w.st.funcField(c.Value)
	}
	if callee == nil || callee.Pkg != w.st.pkg || len(callee.Blocks) == 0 || parent != nil && parent.depth >= maxDepth {
		return nil
	}
	depth := 1
	if parent != nil {
		depth = parent.depth + 1
	}
	return &frame{fn: callee, args: c.Args, parent: parent, depth: depth}
}

// funcVar returns the function a package variable of func type that v loads holds, when the
// package stores one function there and nothing else (var DefaultTransport = func(...) {...}):
// its default, which users may replace but most run.
func (st *state) funcVar(v ssa.Value) *ssa.Function {
	g := st.ownGlobal(v)
	if g == nil {
		return nil
	}
	stored := st.stores.Globals[g]
	if len(stored) != 1 {
		return nil
	}
	fn, _ := stored[0].(*ssa.Function)
	return fn
}

// funcField returns the function an unexported struct field of func type that v loads holds,
// when the package's production code stores one function or function literal there and
// nothing else (newHTTP: func() *http.Client { c := *http.DefaultClient; return &c }): no
// other package can put another there.
func (st *state) funcField(v ssa.Value) *ssa.Function {
	fv := flow.OwnField(v, st.pass.Pkg)
	if fv == nil {
		return nil
	}
	if _, isFunc := fv.Type().Underlying().(*types.Signature); !isFunc {
		return nil
	}
	var fn *ssa.Function
	for _, s := range st.stores.Fields[fv] {
		if testcode.Made(st.pass, s) {
			continue // a test's stand-in
		}
		x := flow.Unwrap(s)
		if mc, ok := x.(*ssa.MakeClosure); ok {
			x = mc.Fn
		}
		f, ok := x.(*ssa.Function)
		if !ok || fn != nil && f != fn {
			return nil
		}
		fn = f
	}
	return fn
}

// nilFuncVar reports whether v loads an unexported package variable of func type that
// nothing in the package sets in this build (its setter is behind a build tag): it is nil,
// so a call of it never runs (it sits behind a != nil test).
func (st *state) nilFuncVar(v ssa.Value) bool {
	g := st.ownGlobal(v)
	if g == nil || g.Object() == nil || g.Object().Exported() || st.globalTouched[g] {
		return false
	}
	_, isFunc := v.Type().Underlying().(*types.Signature)
	return isFunc && len(st.stores.Globals[g]) == 0
}

// ownGlobal returns the package variable of this package that v loads, or nil.
func (st *state) ownGlobal(v ssa.Value) *ssa.Global {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	if g, ok := load.X.(*ssa.Global); ok && g.Pkg == st.pkg {
		return g
	}
	return nil
}

// arg returns the argument that parameter p of the entered function was called with.
func (f *frame) arg(p *ssa.Parameter) (ssa.Value, bool) {
	if f == nil || p.Parent() != f.fn {
		return nil, false
	}
	if i := slices.Index(f.fn.Params, p); i >= 0 && i < len(f.args) {
		return f.args[i], true
	}
	return nil, false
}
