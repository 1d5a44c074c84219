package remote

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Clients and dialers: where an http.Client, net.Dialer or tls.Dialer is built and whether a
// timeout is set on it, and the package-wide index of the fields and variables through which one
// may be set elsewhere (clientindex.go); what a setting holds when nobody sets it (defaults.go).

// obj evaluates a client or dialer (a pointer to a struct of type t): where it is built, and
// whether a timeout is set on it.
func (w *walker) obj(v ssa.Value, f *frame, t *knowledge.ClientType) verdict {
	r := w.obj1(v, f, t)
	if r.k == vUnbounded && w.st.untraced[t] {
		return unknown // the package sets timeouts on values of the type the model cannot trace
	}
	return r
}

func (w *walker) obj1(v ssa.Value, f *frame, t *knowledge.ClientType) verdict {
	v, r, ok := w.value(v, f, roleObj, t)
	if !ok {
		return r
	}
	eval := func(v ssa.Value, f *frame) verdict { return w.obj1(v, f, t) }
	switch v.(type) {
	case *ssa.Call, *ssa.Extract:
		// A client a function returns: what the caller sets on it, then how it was built.
		var set Origin
		if r := w.fieldsSet(v, t, &set, 0); r.k != vUnbounded {
			return r
		}
		r := w.built(v, f, t, eval)
		if r.k == vUnbounded && r.origin != nil && set.Zeroed.IsValid() {
			o := *r.origin // rc := retryablehttp.NewClient(); rc.HTTPClient.Timeout = 0
			o.Zeroed = set.Zeroed
			r.origin = &o
		}
		return r
	}
	return w.built(v, f, t, eval)
}

// built evaluates a client or dialer by how it was built: a composite literal or new(T), a
// variable, a parameter, a field, a constructor's result.
func (w *walker) built(v ssa.Value, f *frame, t *knowledge.ClientType, eval func(ssa.Value, *frame) verdict) verdict {
	switch v := v.(type) {
	case *ssa.Alloc:
		if typeis.Named(v.Type(), t.Pkg, t.Name) {
			return w.copyAlloc(v, f, t, eval)
		}
		if fa := wrappedTransport(v, t); fa >= 0 {
			return w.wrapper(v, fa, f, eval)
		}
	case *ssa.Global:
		if typeis.Named(v.Type(), t.Pkg, t.Name) {
			return w.zeroGlobal(v, t)
		}
	case *ssa.FieldAddr:
		if typeis.Named(v.Type(), t.Pkg, t.Name) {
			if fv := flow.FieldVar(v); fv != nil && fv.Pkg() == w.st.pass.Pkg && len(w.st.prodStores(fv)) > 0 {
				// A struct field that holds the client itself (type Client struct {
				// http.Client }): what the package stores there.
				return w.load(v, f, t)
			}
			return w.zeroField(v, t)
		}
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return unknown
		}
		if t == knowledge.HTTPClient && isDefaultClientLoad(v.X) {
			// *http.DefaultClient: a copy of the default, without a Timeout.
			r := w.defaultClient()
			if r.origin != nil {
				o := *r.origin
				o.Pos = v.Pos()
				if !o.Pos.IsValid() {
					o.Pos = w.st.named(v.Parent(), v.X.(*ssa.UnOp).X.(*ssa.Global).Object())
				}
				r.origin = &o
			}
			return r
		}
		if a, ok := v.X.(*ssa.Alloc); ok && typeis.Named(a.Type(), t.Pkg, t.Name) {
			// c := http.Client{...}; return Query{Proxy: c}: a copy of a client made here.
			return w.copyAlloc(a, f, t, eval)
		}
		r := w.load(v.X, f, t)
		if g, ok := v.X.(*ssa.Global); ok && r.origin != nil && r.origin.Kind == Default && !r.origin.Pos.IsValid() {
			o := *r.origin
			o.Pos = w.st.named(v.Parent(), g.Object())
			r.origin = &o
		}
		return r
	case *ssa.Parameter:
		if f == nil && v.Parent() != w.top {
			// Given to a function the walk did not come through: what the package's calls
			// give it, and the caller's choice when another package may call it.
			return w.given(v, eval)
		}
		r := w.param(v, f, false, eval)
		if r.k != vParam {
			return r
		}
		// The caller's client: unless this function sets a timeout on it, the caller's
		// business, checked where it passes one (through a paramFact).
		if s := w.fieldsSet(v, t, nil, 0); s.k != vUnbounded {
			return s
		}
		r.obj, r.at = t, v.Pos()
		return r
	case *ssa.Field:
		if f == nil && flow.Given(v.X) {
			return caller(v.Pos()) // a field of the options a caller gives
		}
	case *ssa.Extract, *ssa.TypeAssert:
		if ta := flow.FromContextValue(v); ta != nil {
			return caller(ta.Pos()) // a client the caller put in the context
		}
	case *ssa.Phi:
		r := none
		for _, e := range v.Edges {
			r = joinClients(r, eval(e, f))
		}
		return r
	}
	return w.follow(v, f, false, func(c *ssa.CallCommon, idx int, f *frame) verdict { return w.objCall(c, idx, f, t) }, eval)
}

// wrappedTransport returns the index of the field through which a, a RoundTripper of the
// program's own (a logging or header-setting wrapper), sends: its only field of type
// *http.Transport; -1 when a is not such a wrapper or t is not the transport.
func wrappedTransport(a *ssa.Alloc, t *knowledge.ClientType) int {
	if t != knowledge.HTTPTransport {
		return -1
	}
	st, ok := pointee(a.Type()).Underlying().(*types.Struct)
	if !ok {
		return -1
	}
	if m, _, _ := types.LookupFieldOrMethod(a.Type(), true, nil, "RoundTrip"); m == nil {
		return -1
	}
	idx := -1
	for i := range st.NumFields() {
		if _, ptr := st.Field(i).Type().(*types.Pointer); ptr && typeis.Named(st.Field(i).Type(), t.Pkg, t.Name) {
			if idx >= 0 {
				return -1 // two transports: which one sends, the model does not know
			}
			idx = i
		}
	}
	return idx
}

// wrapper evaluates the transport a wrapper made at a sends through: what is stored into its
// field idx, on every store; unknown when nothing is.
func (w *walker) wrapper(a *ssa.Alloc, idx int, f *frame, eval func(ssa.Value, *frame) verdict) verdict {
	r := none
	for _, ref := range *a.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != a || fa.Field != idx {
			continue
		}
		for _, rr := range *fa.Referrers() {
			if s, ok := rr.(*ssa.Store); ok && s.Addr == fa {
				r = join(r, eval(s.Val, f))
			}
		}
	}
	if r.k == vNone {
		return unknown
	}
	return r
}

// joinClients joins the clients a value may hold: one without a timeout on some path leaves
// that path unbounded, though another path's client has one (c := http.DefaultClient; if
// proxy != "" { c = &http.Client{Timeout: ...} }: the default is what most users run).
func joinClients(a, b verdict) verdict {
	switch {
	case a.k == vBounded && b.k == vUnbounded && b.origin != nil:
		return b
	case b.k == vBounded && a.k == vUnbounded && a.origin != nil:
		return a
	}
	return join(a, b)
}

func (w *walker) objCall(c *ssa.CallCommon, idx int, f *frame, t *knowledge.ClientType) verdict {
	if recv := chainRecv(c, t); recv != nil {
		// A setter in a builder's chain (resty.New().SetBaseURL(u).SetTimeout(d)): the
		// setter's own bound, then the value it was called on.
		if sv, ok := setterEffect(c, t); ok {
			return sv
		}
		return w.obj1(recv, f, t)
	}
	id := flow.ID(flow.Callee(c))
	if wrapped, ok := knowledge.Wraps[id]; ok && wrapped == t && len(c.Args) > 0 {
		return w.obj(c.Args[0], f, knowledge.HTTPClient) // resty.NewWithClient(hc): hc's Timeout
	}
	if ctor, ok := knowledge.NoTimeoutConstructors[id]; ok && ctor.Type == t {
		return verdict{k: vUnbounded, origin: &Origin{Kind: Constructor, Type: t.Display, Field: t.Setting, Pos: c.Pos(), Name: ctor.Name}}
	}
	if by, ok := knowledge.TimeoutConstructors[id]; ok {
		return bounded(by)
	}
	if inner, ok := knowledge.SendsThrough[id]; ok && t == knowledge.HTTPClient && len(c.Args) > 0 {
		return w.obj(c.Args[0], f, inner) // StandardClient: the retrying client's settings bound it
	}
	if callee := flow.Callee(c); callee != nil {
		if b, ok := w.st.resultOf(callee, idx, t); ok && b.Bounded != "" {
			return bounded(b.Bounded)
		} else if ok && b.Passes && b.Param < len(c.Args) && !flow.IsZero(c.Args[b.Param]) {
			return w.obj(c.Args[b.Param], f, t) // the client given, handed back
		}
		if b, ok := w.st.constructed(callee, idx, t); ok {
			name := flow.Name(callee, w.st.pass.Pkg)
			if callee.Signature().Recv() == nil {
				name = callee.Pkg().Name() + "." + callee.Name()
			}
			return verdict{k: vUnbounded, origin: &Origin{Kind: Constructor, Type: t.Display, Field: t.Setting, Pos: c.Pos(), Name: name, Transport: b.Transport}}
		}
	}
	return w.results(c, idx, f, func(v ssa.Value, f *frame) verdict { return w.obj1(v, f, t) })
}

// load evaluates the pointer loaded from addr: a package variable, a struct field, a local
// variable whose address is taken, a variable captured by a closure.
func (w *walker) load(addr ssa.Value, f *frame, t *knowledge.ClientType) verdict {
	if r, ok := w.enter(addr, f, roleLoad, t); !ok {
		return r
	}
	eval := func(v ssa.Value, f *frame) verdict { return w.obj1(v, f, t) }
	each := func(vals []ssa.Value, fv *types.Var) verdict {
		r := none
		var vs []verdict
		for _, s := range vals {
			v := eval(s, nil)
			vs = append(vs, v)
			r = joinClients(r, v)
		}
		if len(vs) > 1 && r.origin != nil && !allPublicConstructors(vals, fv) {
			// Stores in different places fill the field of different values (one writer
			// made for uploads, another for a check): which reaches this load the model does
			// not know, so the others are not claimed; one store's own (a constructor given
			// two clients by the package's calls) are. Where every store is in an exported
			// constructor of the field's exported type (NewClient, NewProxiedClient), each is
			// a way users make it, and every client reaches every send.
			r.also = nil
			for _, v := range vs {
				if v.origin == r.origin {
					r.also = v.also
				}
			}
		}
		return known(r)
	}
	switch a := addr.(type) {
	case *ssa.Global:
		if t == knowledge.HTTPClient && isDefaultClient(a) {
			return w.defaultClient()
		}
		if name, shared := w.st.sharedClient(a); name != "" && t == knowledge.HTTPClient && !w.st.globalTouched[a] {
			return verdict{k: vUnbounded, origin: &Origin{Kind: Default, Type: t.Display, Field: t.Setting, Name: name, Shared: shared}}
		}
		if a.Pkg != w.st.pkg || w.st.globalTouched[a] {
			return unknown
		}
		return each(w.st.prodGlobals(a), nil)
	case *ssa.FieldAddr:
		fv := flow.FieldVar(a)
		if fv != nil && len(w.st.prodStores(fv)) == 0 && givenThrough(a.X, f) {
			return caller(a.Pos()) // a field of the options a caller gives, set by none here
		}
		if fv == nil || fv.Pkg() != w.st.pass.Pkg || w.st.fieldTouched[fv] {
			return unknown
		}
		r := each(w.st.prodStores(fv), fv)
		if r.k == vUnbounded && r.origin != nil && r.origin.Kind == Default && !r.origin.Fallback && userField(fv) {
			// cfg.HTTPClient = http.DefaultClient in an exported field of an exported type:
			// the package's default, which its users may replace through the field.
			o := *r.origin
			o.Fallback, o.Given = true, fv.Pos()
			r.origin = &o
		} else if r.k == vUnbounded && r.origin != nil && r.origin.Kind == Default && !r.origin.Fallback && !r.origin.Shared && !fv.Exported() {
			o := *r.origin // httpClient: http.DefaultClient, and no way to give another
			o.Held = true
			r.origin = &o
		}
		if s := w.st.unsetVia[fv]; s != nil && r.origin != nil && !r.origin.Unset.IsValid() {
			o := *r.origin // c.hc = &http.Client{}; c.hc.Timeout = c.Timeout
			o.Unset, o.UnsetFrom = s.Pos(), settingName(s.Val)
			r.origin = &o
		}
		return r
	case *ssa.Alloc:
		return w.stored(a, f, eval)
	case *ssa.FreeVar:
		if f == nil {
			return w.freeVar(a, func(b ssa.Value) verdict { return w.load(b, nil, t) })
		}
	}
	return unknown
}

// defaultClient evaluates http.DefaultClient, which has no timeout unless the package changes it.
func (w *walker) defaultClient() verdict {
	if w.st.defaultTouched || w.st.untraced[knowledge.HTTPClient] {
		return unknown
	}
	return verdict{k: vUnbounded, origin: &Origin{Kind: Default, Type: knowledge.HTTPClient.Display, Field: knowledge.HTTPClient.Setting, Name: "http.DefaultClient"}}
}

// copyAlloc evaluates a client or dialer made in the function (alloc) which, when the
// function takes the client by value (func withTLS(c http.Client) *http.Client { ...; return
// &c }), is a copy of the one its caller gives: what is set on the copy, then the caller's.
func (w *walker) copyAlloc(a *ssa.Alloc, f *frame, t *knowledge.ClientType, eval func(ssa.Value, *frame) verdict) verdict {
	r := w.alloc(a, t)
	if p := valueParam(a); p != nil && r.k == vUnbounded {
		return eval(p, f)
	}
	return r
}

// valueParam returns the parameter of a's function whose value a's function copies into a
// (a client taken by value, whose address it takes), or nil.
func valueParam(a *ssa.Alloc) *ssa.Parameter {
	for _, r := range *a.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a {
			if p, ok := st.Val.(*ssa.Parameter); ok && p.Parent() == a.Parent() {
				return p
			}
		}
	}
	return nil
}

// alloc evaluates a client or dialer made in the function: a composite literal, new(T), or a
// local variable, by what is set on it (fieldsSet).
func (w *walker) alloc(a *ssa.Alloc, t *knowledge.ClientType) verdict {
	origin := &Origin{Kind: Local, Type: t.Display, Field: t.Setting, Pos: a.Pos(), Alloc: a}
	r := w.fieldsSet(a, t, origin, 0)
	if r.k == vUnbounded {
		r.origin = origin
	}
	return r
}

// fieldsSet evaluates what the function sets on a, a client or dialer (a pointer to a struct
// of type t) that it makes or is given: bounded when a timeout field is set to anything but a
// zero constant, or its sub-client (tls.Dialer.NetDialer, retryablehttp.Client.HTTPClient) to
// a bounded one or given a timeout; unknown when a is overwritten by something else than a
// literal, a field's address is taken or it is passed to a function that may set one;
// unbounded, without an origin, when nothing bounds it. A literal copied into a whole (c :=
// http.Client{...}) becomes origin's position.
func (w *walker) fieldsSet(a ssa.Value, t *knowledge.ClientType, origin *Origin, depth int) verdict {
	if depth > 4 {
		return unknown
	}
	result := verdict{k: vUnbounded}
	if types.IsInterface(a.Type()) {
		// An interface holding the client (an HTTPClient of the package's own): nothing
		// reaches its Timeout without asserting its type, which gives up on the type for the
		// package (checkTimeoutField).
		return result
	}
	refs := a.Referrers()
	if refs == nil {
		return result
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			fv := flow.FieldVar(r)
			if fv == nil {
				continue
			}
			name := fv.Name()
			if t == knowledge.HTTPClient && name == "Transport" {
				if dialerDeadline(r) {
					return bounded("the deadline its transport's dialer sets on each connection")
				}
				if by, ok := w.transportBounds(r); ok && origin != nil {
					origin.Transport = by
				}
				if origin != nil && unixTransport(r) {
					origin.Unix = true
				}
				continue
			}
			timeout, sub := slices.Contains(t.Fields, name), name == t.SubField && t.Sub != nil
			if !timeout && !sub {
				continue
			}
			for _, rr := range *r.Referrers() {
				switch rr := rr.(type) {
				case *ssa.Store:
					if rr.Addr != r {
						continue
					}
					if onlyWhenGiven(rr) {
						// if cfg.RequestTimeout != 0 { c.Timeout = cfg.RequestTimeout }: set only
						// when the caller gives one; by default, not set.
						continue
					}
					if timeout {
						if flow.IsZero(rr.Val) {
							if _, isConst := rr.Val.(*ssa.Const); isConst && origin != nil {
								origin.Zeroed = rr.Pos() // c.Timeout = 0 written out: no timeout on purpose
							}
							continue
						}
						if !w.unsetByDefault(rr.Val, t, depth) {
							return boundedFor(t.Display+"."+name, rr.Val)
						}
						if origin != nil {
							origin.Unset, origin.UnsetFrom = rr.Pos(), settingName(rr.Val)
						}
						continue
					}
					switch sv := w.obj(rr.Val, nil, t.Sub); sv.k {
					case vBounded:
						return bounded(t.Display + "." + name + " (" + sv.by + ")")
					case vUnbounded:
						if origin != nil && origin.Transport == "" && sv.origin != nil {
							origin.Transport = sv.origin.Transport // the sub-client's transport: what it sends through
						}
					default:
						result = unknown
					}
				case *ssa.UnOp:
					// A read; of the sub-client, what is set on it.
					if sub && rr.Op == token.MUL {
						var subOrigin Origin // only what is zeroed on it is kept
						sv := w.fieldsSet(rr, t.Sub, &subOrigin, depth+1)
						if origin != nil && subOrigin.Zeroed.IsValid() {
							origin.Zeroed = subOrigin.Zeroed
						}
						switch sv.k {
						case vBounded:
							return bounded(t.Display + "." + name + " (" + sv.by + ")")
						case vUnknown:
							result = unknown
						}
					}
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
			if p, ok := r.Val.(*ssa.Parameter); ok && p.Parent() == r.Parent() {
				continue // the client a caller gives, copied (copyAlloc)
			}
			if load, ok := r.Val.(*ssa.UnOp); ok && load.Op == token.MUL {
				if isDefaultClientLoad(load.X) && t == knowledge.HTTPClient && !w.st.defaultTouched {
					// A copy of http.DefaultClient (c := *http.DefaultClient): its settings,
					// no Timeout, then what is set on the copy.
					if origin != nil {
						origin.CopyOf = "http.DefaultClient"
					}
					continue
				}
				if lit, ok := load.X.(*ssa.Alloc); ok && lit.Comment == "complit" {
					if lit.Pos().IsValid() && origin != nil {
						origin.Pos, origin.Alloc = lit.Pos(), lit
					}
					switch sv := w.fieldsSet(lit, t, origin, depth+1); sv.k {
					case vBounded:
						return sv
					case vUnbounded:
						continue
					}
				}
			}
			if sv, ok := w.returnedLiteral(r.Val, t, origin, depth); ok {
				if sv.k == vBounded {
					return sv
				}
				continue
			}
			result = unknown
		case *ssa.Phi:
			// client := s.HTTPClient; if client == nil { client = &http.Client{} };
			// client.Timeout = d: what is set on the merged value is set on this one.
			switch sv := w.fieldsSet(r, t, nil, depth+1); sv.k {
			case vBounded:
				return sv
			case vUnknown:
				result = unknown
			}
		case ssa.CallInstruction:
			c := r.Common()
			if isMethodOf(c, a, t) {
				res, _ := r.(*ssa.Call)
				var resv ssa.Value
				if res != nil {
					resv = res
				}
				switch sv, _ := w.chainSet(c, t, origin, depth, resv); sv.k {
				case vBounded:
					return sv
				case vUnknown:
					result = unknown
				}
				continue
			}
			if _, remote := rules[flow.ID(flow.Callee(c))]; remote {
				continue // dialed with: remote calls do not set timeouts
			}
			for i, arg := range c.Args {
				if arg == a && !w.st.usesOnly(c, i) {
					result = unknown // passed to a function that may set a timeout
				}
			}
		}
	}
	return result
}

// isReceiver reports whether p is its method's receiver.
func isReceiver(p *ssa.Parameter) bool {
	fn := p.Parent()
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == p
}

// pointee returns what a pointer type points to; t itself when it is not a pointer.
func pointee(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// transportBounds reports whether what is stored into an http.Client's Transport field (fa) is
// an http.Transport with a ResponseHeaderTimeout, on every path the model can follow, and names
// it; a transport it cannot follow (a caller's, a wrapper's) says nothing.
func (w *walker) transportBounds(fa *ssa.FieldAddr) (string, bool) {
	by, ok := "", false
	for _, rr := range *fa.Referrers() {
		st, isStore := rr.(*ssa.Store)
		if !isStore || st.Addr != fa {
			continue
		}
		v := w.obj(st.Val, nil, knowledge.HTTPTransport)
		if v.k != vBounded {
			return "", false
		}
		by, ok = v.by, true
	}
	return by, ok
}

// isMethodOf reports whether c calls a method of type t on receiver a.
func isMethodOf(c *ssa.CallCommon, a ssa.Value, t *knowledge.ClientType) bool {
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) == 0 || c.Args[0] != a || fn.Signature.Recv() == nil {
		return false
	}
	return typeis.Named(fn.Signature.Recv().Type(), t.Pkg, t.Name)
}

// named returns where fn's source first names obj (http.DefaultClient in c = http.DefaultClient),
// or NoPos.
func (st *state) named(fn *ssa.Function, obj types.Object) token.Pos {
	fn = flow.Root(fn)
	syntax := flow.Syntax(fn)
	if syntax == nil || obj == nil {
		return token.NoPos
	}
	k := namedKey{fn, obj}
	if pos, ok := st.names[k]; ok {
		return pos
	}
	pos := token.NoPos
	defer func() { st.names[k] = pos }()
	ast.Inspect(syntax, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !pos.IsValid() && st.pass.TypesInfo.Uses[id] == obj {
			pos = id.Pos()
		}
		return !pos.IsValid()
	})
	return pos
}

type namedKey struct {
	fn  *ssa.Function
	obj types.Object
}

// returnedLiteral evaluates v, a client returned by value by a function of the package
// (client := makeClient(), which returns http.Client{Transport: tr}) or, through its fact, of
// another package: bounded when a literal it returns sets a timeout, unbounded when none does
// (for another package's function, origin becomes its call). ok is false for anything else.
func (w *walker) returnedLiteral(v ssa.Value, t *knowledge.ClientType, origin *Origin, depth int) (verdict, bool) {
	idx := 0
	if e, ok := v.(*ssa.Extract); ok {
		v, idx = e.Tuple, e.Index
	}
	c, ok := v.(*ssa.Call)
	if !ok || depth > 2 {
		return verdict{}, false
	}
	callee := c.Call.StaticCallee()
	if callee == nil {
		return verdict{}, false
	}
	if callee.Pkg != w.st.pkg {
		fn, _ := callee.Object().(*types.Func)
		b, ok := w.st.constructed(fn, idx, t)
		if !ok {
			return verdict{}, false
		}
		if origin != nil {
			*origin = Origin{Kind: Constructor, Type: t.Display, Field: t.Setting, Pos: c.Pos(), Name: fn.Pkg().Name() + "." + fn.Name(), Transport: b.Transport}
		}
		return verdict{k: vUnbounded}, true
	}
	if len(callee.Blocks) == 0 {
		return verdict{}, false
	}
	return w.returnedLiterals(callee, idx, t, origin, depth)
}

// returnedLiterals evaluates the clients fn returns by value as its result idx, when each is
// a composite literal: bounded when one sets a timeout, unbounded when none does. ok is false
// for anything else.
func (w *walker) returnedLiterals(fn *ssa.Function, idx int, t *knowledge.ClientType, origin *Origin, depth int) (verdict, bool) {
	found := false
	for r := range returned(fn, idx) {
		load, ok := r.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return verdict{}, false
		}
		lit, ok := load.X.(*ssa.Alloc)
		if !ok || !typeis.Named(lit.Type(), t.Pkg, t.Name) {
			return verdict{}, false
		}
		if origin != nil && lit.Pos().IsValid() {
			origin.Pos, origin.Alloc = lit.Pos(), lit
		}
		switch sv := w.fieldsSet(lit, t, origin, depth+1); sv.k {
		case vBounded:
			return sv, true
		case vUnbounded:
			found = true
		default:
			return verdict{}, false
		}
	}
	return verdict{k: vUnbounded}, found
}
