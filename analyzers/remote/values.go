package remote

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// The walks in this file follow SSA values backward from a remote call to where they are
// made: a context to context.Background or context.WithTimeout, a request to
// http.NewRequest, a client to its composite literal. They look through phis, conversions,
// local variables, the results of functions of the same package (whose parameters are then
// mapped to the call's arguments) and, for clients and dialers, struct fields and package
// variables assigned in the package. Whatever else they meet (a parameter of a function of
// another package, a field set elsewhere, a call of another package) makes the verdict
// "unknown", which the checks treat as handled.

type vkind uint8

const (
	vNone      vkind = iota // no information (a cycle was closed): the identity of join
	vUnknown                // cannot tell: treated as handled
	vParam                  // depends only on a parameter of the function being analysed
	vBounded                // a timeout or deadline applies
	vUnbounded              // nothing bounds it
)

type verdict struct {
	k      vkind
	param  int    // vParam: the parameter's index in the function's SSA parameters
	req    bool   // vParam: the parameter is a request whose context decides
	by     string // vBounded: what bounds it
	src    Source // vUnbounded: where the context without a deadline comes from
	noCtx  bool   // vUnbounded: the call takes no context at all
	origin *Origin
}

var (
	none    = verdict{k: vNone}
	unknown = verdict{k: vUnknown}
)

func bounded(by string) verdict { return verdict{k: vBounded, by: by} }
func noContext() verdict        { return verdict{k: vUnbounded, noCtx: true} }

// join combines the verdicts of alternative paths (the edges of a phi, the stores into a
// field): a bound on any path counts ("anywhere on the path"), then an unknown path wins.
func join(a, b verdict) verdict {
	switch {
	case a.k == vNone:
		return b
	case b.k == vNone:
		return a
	case a.k == vBounded:
		return a
	case b.k == vBounded:
		return b
	case a.k == vUnknown:
		return a
	case b.k == vUnknown:
		return b
	case a.k == vParam && b.k == vParam:
		if a.param == b.param && a.req == b.req {
			return a
		}
		return unknown
	case a.k == vParam:
		return a
	case b.k == vParam:
		return b
	}
	return a // both unbounded: the first explains it
}

// either combines two independent bounds of one call (a client's timeout and the request's
// context): either one suffices.
func either(a, b verdict) verdict {
	switch {
	case a.k == vBounded:
		return a
	case b.k == vBounded:
		return b
	case a.k == vUnknown || a.k == vNone || b.k == vUnknown || b.k == vNone:
		return unknown
	case a.k == vParam && b.k == vParam:
		return unknown
	case a.k == vParam:
		return a
	case b.k == vParam:
		return b
	}
	// Both unbounded: one side says which client or dialer, the other where the context
	// comes from (or that there is none).
	out := a
	if out.origin == nil {
		out.origin = b.origin
	}
	if out.src.What == "" {
		out.src = b.src
	}
	out.noCtx = (a.noCtx || b.noCtx) && out.src.What == ""
	return out
}

func (v verdict) timeout() Timeout {
	t := Timeout{Param: -1}
	switch v.k {
	case vBounded:
		t.Status, t.By = Bounded, v.by
	case vUnbounded:
		t.Status, t.Context, t.NoContext, t.Client = Unbounded, v.src, v.noCtx, v.origin
	case vParam:
		t.Param, t.Request = v.param, v.req
	}
	return t
}

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

// ctx evaluates a context.Context value.
func (w *walker) ctx(v ssa.Value, f *frame) verdict {
	if v == nil {
		return unknown
	}
	v = flow.Unwrap(v)
	if r, ok := w.enter(v, f, roleCtx, nil); !ok {
		return r
	}
	switch v := v.(type) {
	case *ssa.Call:
		return w.ctxCall(v.Common(), 0, f)
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			return w.ctxCall(c.Common(), v.Index, f)
		}
	case *ssa.Phi:
		return w.edges(v, f, w.ctx)
	case *ssa.Parameter:
		return w.param(v, f, false, w.ctx)
	case *ssa.UnOp:
		if a, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			return w.stored(a, f, w.ctx)
		}
	}
	return unknown
}

func (w *walker) ctxCall(c *ssa.CallCommon, idx int, f *frame) verdict {
	fn := flow.Callee(c)
	id := flow.ID(fn)
	if id.Pkg == ctxPkg && id.Recv == "" {
		switch {
		case id.Name == "Background" || id.Name == "TODO":
			return verdict{k: vUnbounded, src: Source{What: "context." + id.Name + "()", Pos: c.Pos()}}
		case id.Name == "WithoutCancel":
			// Detached from its parent: no deadline, whatever the parent's.
			return verdict{k: vUnbounded, src: Source{What: "context.WithoutCancel", Pos: c.Pos()}}
		case deadlineMakers[id.Name]:
			return bounded("context." + id.Name)
		}
	}
	if i, ok := ctxWrappers[id]; ok {
		return w.ctx(flow.NewSite(c, fn).Arg(i), f)
	}
	if id == (flow.FuncID{Pkg: httpPkg, Recv: "Request", Name: "Context"}) && len(c.Args) == 1 {
		return w.req(c.Args[0], f)
	}
	return w.results(c, idx, f, w.ctx)
}

// req evaluates the context of an *http.Request value.
func (w *walker) req(v ssa.Value, f *frame) verdict {
	if v == nil {
		return unknown
	}
	v = flow.Unwrap(v)
	if r, ok := w.enter(v, f, roleReq, nil); !ok {
		return r
	}
	switch v := v.(type) {
	case *ssa.Call:
		return w.reqCall(v.Common(), 0, f)
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			return w.reqCall(c.Common(), v.Index, f)
		}
	case *ssa.Phi:
		return w.edges(v, f, w.req)
	case *ssa.Parameter:
		return w.param(v, f, true, w.req)
	case *ssa.Alloc:
		if v.Comment == "complit" && typeis.Named(v.Type(), httpPkg, "Request") {
			return verdict{k: vUnbounded, src: Source{What: "an http.Request literal", Pos: v.Pos()}}
		}
	case *ssa.UnOp:
		if a, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			return w.stored(a, f, w.req)
		}
	}
	return unknown
}

func (w *walker) reqCall(c *ssa.CallCommon, idx int, f *frame) verdict {
	id := flow.ID(flow.Callee(c))
	switch id {
	case flow.FuncID{Pkg: httpPkg, Name: "NewRequest"}:
		return verdict{k: vUnbounded, src: Source{What: "http.NewRequest", Pos: c.Pos()}}
	case flow.FuncID{Pkg: "net/http/httptest", Name: "NewRequest"}:
		return verdict{k: vUnbounded, src: Source{What: "httptest.NewRequest", Pos: c.Pos()}}
	case flow.FuncID{Pkg: httpPkg, Name: "NewRequestWithContext"}:
		return w.ctx(c.Args[0], f)
	case flow.FuncID{Pkg: httpPkg, Recv: "Request", Name: "WithContext"},
		flow.FuncID{Pkg: httpPkg, Recv: "Request", Name: "Clone"}:
		if len(c.Args) == 2 {
			return w.ctx(c.Args[1], f)
		}
	}
	return w.results(c, idx, f, w.req)
}

// makers visits the calls that make the request v (http.NewRequest, NewRequestWithContext),
// with the frame their arguments are in; it returns false when some path to v is not one.
func (w *walker) makers(v ssa.Value, f *frame, depth int, visit func(c *ssa.CallCommon, f *frame)) bool {
	if v == nil || depth > 16 {
		return false
	}
	v = flow.Unwrap(v)
	switch v := v.(type) {
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			return w.makersCall(c.Common(), f, depth, visit)
		}
	case *ssa.Call:
		return w.makersCall(v.Common(), f, depth, visit)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !w.makers(e, f, depth+1, visit) {
				return false
			}
		}
		return true
	case *ssa.Parameter:
		if f != nil && v.Parent() == f.fn {
			if i := slices.Index(f.fn.Params, v); i >= 0 && i < len(f.args) {
				return w.makers(f.args[i], f.parent, depth+1, visit)
			}
		}
	}
	return false
}

func (w *walker) makersCall(c *ssa.CallCommon, f *frame, depth int, visit func(c *ssa.CallCommon, f *frame)) bool {
	switch flow.ID(flow.Callee(c)) {
	case flow.FuncID{Pkg: httpPkg, Name: "NewRequest"}, flow.FuncID{Pkg: httpPkg, Name: "NewRequestWithContext"}:
		visit(c, f)
		return true
	case flow.FuncID{Pkg: httpPkg, Recv: "Request", Name: "WithContext"},
		flow.FuncID{Pkg: httpPkg, Recv: "Request", Name: "Clone"}:
		return w.makers(c.Args[0], f, depth+1, visit)
	}
	callee := c.StaticCallee()
	if callee == nil || callee.Pkg != w.st.pkg || len(callee.Blocks) == 0 || f != nil && f.depth >= maxDepth {
		return false
	}
	nf := newFrame(callee, c, f)
	found := false
	for _, b := range callee.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 || flow.IsZero(ret.Results[0]) {
			continue // return nil, err
		}
		if !w.makers(ret.Results[0], nf, depth+1, visit) {
			return false
		}
		found = true
	}
	return found
}

// requestArg returns the i-th argument of http.NewRequest (method, url) for a maker call,
// with NewRequestWithContext's context skipped.
func requestArg(c *ssa.CallCommon, i int) ssa.Value {
	if flow.ID(flow.Callee(c)).Name == "NewRequestWithContext" {
		i++
	}
	if i < len(c.Args) {
		return c.Args[i]
	}
	return nil
}

// method returns the HTTP method of the request v, when constants say it.
func (w *walker) method(v ssa.Value) string {
	m, same := "", true
	ok := w.makers(v, nil, 0, func(c *ssa.CallCommon, f *frame) {
		cm := w.str(requestArg(c, 0), f, 0)
		if cm == "" || m != "" && cm != m {
			same = false
		}
		m = cm
	})
	if !ok || !same {
		return ""
	}
	return m
}

// loopbackRequest reports whether every request v can be is made for a constant URL on the
// loopback interface.
func (w *walker) loopbackRequest(v ssa.Value) bool {
	all := true
	ok := w.makers(v, nil, 0, func(c *ssa.CallCommon, f *frame) {
		all = all && w.loopback(requestArg(c, 1), f, 0)
	})
	return ok && all
}

// loopback reports whether the string v is a URL or address whose host is written as a
// constant naming this machine: "http://localhost:8080/ping", "127.0.0.1:" + port, ":9090".
// Its leftmost constant part decides (concatenations, fmt.Sprintf's format,
// net.JoinHostPort's host).
func (w *walker) loopback(v ssa.Value, f *frame, depth int) bool {
	if v == nil || depth > 16 {
		return false
	}
	if s, ok := flow.StringConst(v); ok {
		return loopbackHost(s)
	}
	switch x := flow.Unwrap(v).(type) {
	case *ssa.BinOp:
		return x.Op == token.ADD && w.loopback(x.X, f, depth+1)
	case *ssa.Call:
		switch flow.ID(flow.Callee(x.Common())) {
		case flow.FuncID{Pkg: "fmt", Name: "Sprintf"}:
			return len(x.Call.Args) > 0 && w.loopback(x.Call.Args[0], f, depth+1)
		case flow.FuncID{Pkg: netPkg, Name: "JoinHostPort"}:
			h := w.str(x.Call.Args[0], f, depth+1)
			return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1"
		}
	case *ssa.Parameter:
		if f != nil && x.Parent() == f.fn {
			if i := slices.Index(f.fn.Params, x); i >= 0 && i < len(f.args) {
				return w.loopback(f.args[i], f.parent, depth+1)
			}
		}
	}
	return false
}

func loopbackHost(s string) bool {
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	for _, p := range []string{"localhost:", "localhost/", "127.", "[::1]", ":"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return s == "localhost"
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

// obj evaluates a client or dialer (a pointer to a struct of type t): where it is built, and
// whether a timeout is set on it.
func (w *walker) obj(v ssa.Value, f *frame, t *objType) verdict {
	r := w.obj1(v, f, t)
	if r.k == vUnbounded && w.st.untraced[t] {
		return unknown // the package sets timeouts on values of the type the model cannot trace
	}
	return r
}

func (w *walker) obj1(v ssa.Value, f *frame, t *objType) verdict {
	if v == nil {
		return unknown
	}
	v = flow.Unwrap(v)
	if r, ok := w.enter(v, f, roleObj, t); !ok {
		return r
	}
	switch v := v.(type) {
	case *ssa.Alloc:
		if typeis.Named(v.Type(), t.pkg, t.name) {
			return w.alloc(v, t)
		}
	case *ssa.Global:
		if typeis.Named(v.Type(), t.pkg, t.name) {
			return w.zeroGlobal(v, t)
		}
	case *ssa.FieldAddr:
		if typeis.Named(v.Type(), t.pkg, t.name) {
			return w.zeroField(v, t)
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return w.load(v.X, f, t)
		}
	case *ssa.Call:
		return w.objCall(v.Common(), 0, f, t)
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			return w.objCall(c.Common(), v.Index, f, t)
		}
	case *ssa.Phi:
		return w.edges(v, f, func(e ssa.Value, f *frame) verdict { return w.obj1(e, f, t) })
	case *ssa.Parameter:
		if r := w.param(v, f, false, func(a ssa.Value, f *frame) verdict { return w.obj1(a, f, t) }); r.k != vParam {
			return r
		}
		return unknown // a client from the caller: the caller's business
	case *ssa.FreeVar:
		if f == nil {
			return w.freeVar(v, func(b ssa.Value) verdict { return w.obj1(b, nil, t) })
		}
	}
	return unknown
}

func (w *walker) objCall(c *ssa.CallCommon, idx int, f *frame, t *objType) verdict {
	if t == httpClient {
		if name, ok := noTimeoutConstructors[flow.ID(flow.Callee(c))]; ok {
			return verdict{k: vUnbounded, origin: &Origin{Kind: Constructor, Type: t.display, Pos: c.Pos(), Name: name}}
		}
	}
	return w.results(c, idx, f, func(v ssa.Value, f *frame) verdict { return w.obj1(v, f, t) })
}

// load evaluates the pointer loaded from addr: a package variable, a struct field, a local
// variable whose address is taken, a variable captured by a closure.
func (w *walker) load(addr ssa.Value, f *frame, t *objType) verdict {
	if r, ok := w.enter(addr, f, roleLoad, t); !ok {
		return r
	}
	each := func(vals []ssa.Value) verdict {
		r := none
		for _, s := range vals {
			r = join(r, w.obj1(s, nil, t))
		}
		if r.k == vNone {
			return unknown
		}
		return r
	}
	switch a := addr.(type) {
	case *ssa.Global:
		if t == httpClient && isDefaultClient(a) {
			return w.defaultClient()
		}
		if a.Pkg != w.st.pkg || w.st.globalTouched[a] {
			return unknown
		}
		return each(w.st.stores.Globals[a])
	case *ssa.FieldAddr:
		fv := flow.FieldVar(a)
		if fv == nil || fv.Pkg() != w.st.pass.Pkg || w.st.fieldTouched[fv] {
			return unknown
		}
		return each(w.st.stores.Fields[fv])
	case *ssa.Alloc:
		r := none
		for _, s := range flow.Stored(a) {
			r = join(r, w.obj1(s, f, t))
		}
		if r.k == vNone {
			return unknown
		}
		return r
	case *ssa.FreeVar:
		if f == nil {
			return w.freeVar(a, func(b ssa.Value) verdict { return w.load(b, nil, t) })
		}
	}
	return unknown
}

// defaultClient evaluates http.DefaultClient, which has no timeout unless the package changes it.
func (w *walker) defaultClient() verdict {
	if w.st.defaultTouched || w.st.untraced[httpClient] {
		return unknown
	}
	return verdict{k: vUnbounded, origin: &Origin{Kind: Default, Type: httpClient.display, Name: "http.DefaultClient"}}
}

// alloc evaluates a client or dialer made in the function: a composite literal, new(T), or a
// local variable. It is bounded when one of its timeout fields is set to anything but a zero
// constant; unknown when it is overwritten as a whole or passed to a function that might set
// one.
func (w *walker) alloc(a *ssa.Alloc, t *objType) verdict {
	origin := &Origin{Kind: Local, Type: t.display, Pos: a.Pos(), Alloc: a}
	r := w.allocFields(a, t, origin, 0)
	if r.k == vUnbounded {
		r.origin = origin
	}
	return r
}

func (w *walker) allocFields(a *ssa.Alloc, t *objType, origin *Origin, depth int) verdict {
	if depth > 4 {
		return unknown
	}
	result := verdict{k: vUnbounded}
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			fv := flow.FieldVar(r)
			if fv == nil {
				continue
			}
			name := fv.Name()
			timeout, sub := slices.Contains(t.fields, name), name == t.subField && t.sub != nil
			if !timeout && !sub {
				continue
			}
			for _, rr := range *r.Referrers() {
				switch rr := rr.(type) {
				case *ssa.Store:
					if rr.Addr != r {
						continue
					}
					if timeout {
						if !flow.IsZero(rr.Val) {
							return bounded(t.display + "." + name)
						}
						continue
					}
					switch sv := w.obj(rr.Val, nil, t.sub); sv.k {
					case vBounded:
						return bounded(t.display + "." + name + " (" + sv.by + ")")
					case vUnbounded:
					default:
						result = unknown
					}
				case *ssa.UnOp:
					// a read
				default:
					result = unknown // its address is taken: something may set it
				}
			}
		case *ssa.Store:
			if r.Addr != a {
				continue // the pointer itself stored somewhere: fine
			}
			// The whole value overwritten: a composite literal built aside and copied in
			// (c := http.Client{...}), or a copy of another value.
			if flow.IsZero(r.Val) {
				continue
			}
			if load, ok := r.Val.(*ssa.UnOp); ok && load.Op == token.MUL {
				if lit, ok := load.X.(*ssa.Alloc); ok && lit.Comment == "complit" {
					if lit.Pos().IsValid() {
						origin.Pos, origin.Alloc = lit.Pos(), lit
					}
					switch sv := w.allocFields(lit, t, origin, depth+1); sv.k {
					case vBounded:
						return sv
					case vUnbounded:
						continue
					}
				}
			}
			result = unknown
		case ssa.CallInstruction:
			c := r.Common()
			if isMethodOf(c, a, t) {
				continue
			}
			if _, remote := rules[flow.ID(flow.Callee(c))]; remote {
				continue // dialed with: remote calls do not set timeouts
			}
			if slices.Contains(c.Args, ssa.Value(a)) {
				result = unknown // passed to a function that may set a timeout
			}
		}
	}
	return result
}

// isMethodOf reports whether c calls a method of type t on receiver a.
func isMethodOf(c *ssa.CallCommon, a ssa.Value, t *objType) bool {
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) == 0 || c.Args[0] != a || fn.Signature.Recv() == nil {
		return false
	}
	return typeis.Named(fn.Signature.Recv().Type(), t.pkg, t.name)
}

// zeroGlobal evaluates a package variable of the struct type itself (var c http.Client).
func (w *walker) zeroGlobal(g *ssa.Global, t *objType) verdict {
	if g.Pkg != w.st.pkg || g.Object() == nil || g.Object().Exported() || w.st.globalTouched[g] || len(w.st.stores.Globals[g]) > 0 {
		return unknown
	}
	return verdict{k: vUnbounded, origin: &Origin{Kind: ZeroVar, Type: t.display, Pos: g.Pos(), Name: g.Name()}}
}

// zeroField evaluates a struct field of the struct type itself (struct{ c http.Client }): its
// zero value, unless the package assigns it or sets a field of it. Exported fields may be set
// by other packages.
func (w *walker) zeroField(fa *ssa.FieldAddr, t *objType) verdict {
	fv := flow.FieldVar(fa)
	if fv == nil || fv.Pkg() != w.st.pass.Pkg || fv.Exported() || fv.Embedded() || w.st.fieldTouched[fv] || len(w.st.stores.Fields[fv]) > 0 {
		return unknown
	}
	return verdict{k: vUnbounded, origin: &Origin{Kind: ZeroField, Type: t.display, Pos: fv.Pos(), Name: fv.Name()}}
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

// grpcDial evaluates a gRPC dial: it leaves the process only when an option makes it block.
func (w *walker) grpcDial(opts []ssa.Value, ctx verdict) (verdict, bool) {
	block, timeout, complete := false, false, true
	for _, o := range opts {
		flow.Backward(o, 128, func(x ssa.Value) bool {
			switch x := x.(type) {
			case *ssa.Call:
				if _, builtin := x.Common().Value.(*ssa.Builtin); builtin {
					return true // append
				}
				id := flow.ID(flow.Callee(x.Common()))
				if id.Pkg == grpcPkg && id.Recv == "" {
					switch id.Name {
					case "WithBlock", "WithReturnConnectionError":
						block = true
					case "WithTimeout":
						timeout = true
					}
					return false
				}
				complete = false // options made elsewhere may set a timeout
			case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
				complete = false
			case *ssa.UnOp:
				if _, ok := x.X.(*ssa.FieldAddr); ok {
					complete = false
				}
			}
			return true
		})
	}
	switch {
	case timeout:
		return bounded("grpc.WithTimeout"), block
	case !block:
		return unknown, false // does not block: not a call that waits for the server
	case !complete:
		return unknown, true
	}
	return ctx, true
}

func isDefaultClient(g *ssa.Global) bool {
	obj := g.Object()
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == httpPkg && obj.Name() == "DefaultClient"
}
