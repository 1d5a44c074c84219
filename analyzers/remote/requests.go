package remote

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Requests: what a request is made with (its method, its URL), and calls to this machine.

// makers visits the calls that make the request v (http.NewRequest, NewRequestWithContext, and
// go-retryablehttp's, whose requests wrap an *http.Request),
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
		if a, ok := f.arg(v); ok {
			return w.makers(a, f.parent, depth+1, visit)
		}
	}
	return false
}

func (w *walker) makersCall(c *ssa.CallCommon, f *frame, depth int, visit func(c *ssa.CallCommon, f *frame)) bool {
	if _, ok := knowledge.RequestMakers[flow.ID(flow.Callee(c))]; ok {
		visit(c, f)
		return true
	}
	if w.st.makerOf(c) != nil {
		visit(c, f) // another package's maker: its fact says which arguments are which
		return true
	}
	if from, ok := copiedRequest(c); ok {
		return w.makers(from, f, depth+1, visit)
	}
	nf := w.enterCall(c, f)
	if nf == nil {
		return false
	}
	found := false
	for v := range returned(nf.fn, 0) {
		if !w.makers(v, nf, depth+1, visit) {
			return false
		}
		found = true
	}
	return found
}

// copiedRequest returns the request that c copies, when it is a call that makes a request
// from another one with the same method and URL (knowledge.RequestCopies: net/http's
// Request.WithContext and Clone, go-retryablehttp's FromRequest and Request.WithContext).
func copiedRequest(c *ssa.CallCommon) (ssa.Value, bool) {
	if cp, ok := knowledge.RequestCopies[flow.ID(flow.Callee(c))]; ok && cp.From < len(c.Args) {
		return c.Args[cp.From], true
	}
	return nil, false
}

// Remade reports whether v is the request p made again: a copy of it (copiedRequest), or a
// new request made with p's method and URL (http.NewRequest(req.Method, req.URL.String(),
// body)), whatever its body and headers. Sending v sends what p asked for.
func Remade(v ssa.Value, p *ssa.Parameter) bool {
	v = flow.Unwrap(v)
	if e, ok := v.(*ssa.Extract); ok && e.Index == 0 {
		v = e.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	c := call.Common()
	if from, ok := copiedRequest(c); ok {
		return flow.SameValue(from, p)
	}
	if m, ok := knowledge.RequestMakers[flow.ID(flow.Callee(c))]; ok {
		if max(m.Method, m.URL) >= len(c.Args) || !fieldOf(c.Args[m.Method], p, "Method") {
			return false
		}
		url := flow.Unwrap(c.Args[m.URL])
		if u, ok := url.(*ssa.Call); ok && flow.ID(flow.Callee(u.Common())) == (flow.FuncID{Pkg: "net/url", Recv: "URL", Name: "String"}) && len(u.Common().Args) == 1 {
			url = u.Common().Args[0]
		}
		return fieldOf(url, p, "URL")
	}
	return false
}

// fieldOf reports whether v is the field name of the request p, loaded (req.Method).
func fieldOf(v ssa.Value, p *ssa.Parameter, name string) bool {
	_, fa := flow.FieldLoad(flow.Unwrap(v))
	if fa == nil || !flow.SameValue(fa.X, p) {
		return false
	}
	f := flow.FieldVar(fa)
	return f != nil && f.Name() == name
}

// requestArg returns the i-th argument (0 method, 1 URL, 2 body) of a maker call: where
// knowledge.RequestMakers says for a library's maker, where its fact says for a call of
// another package's maker (nil when the maker does not take that one from a parameter).
func (st *state) requestArg(c *ssa.CallCommon, i int) ssa.Value {
	k := i
	if m := st.makerOf(c); m != nil {
		k = [...]int{m.Method, m.URL, m.Body}[i]
	} else if m, ok := knowledge.RequestMakers[flow.ID(flow.Callee(c))]; ok {
		k = [...]int{m.Method, m.URL, m.Body}[i]
	}
	if k >= 0 && k < len(c.Args) {
		return c.Args[k]
	}
	return nil
}

// method returns the HTTP method of the request v, when constants say it.
func (w *walker) method(v ssa.Value) string {
	m, same := "", true
	ok := w.makers(v, nil, 0, func(c *ssa.CallCommon, f *frame) {
		cm := w.str(w.st.requestArg(c, 0), f, 0)
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
		all = all && w.loopback(w.st.requestArg(c, 1), f, 0)
	})
	return ok && all
}

// loopback reports whether the string v is a URL or address whose host is written as a
// constant naming this machine: "http://localhost:8080/ping", "127.0.0.1:" + port, ":9090",
// "http://0.0.0.0:%d". Its leftmost constant part decides (concatenations, fmt.Sprintf's
// format, net.JoinHostPort's host), also through a package variable, a list of them, or a
// function of the package that returns them.
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
		case flow.FuncID{Pkg: knowledge.NetPath, Name: "JoinHostPort"}:
			h := w.str(x.Call.Args[0], f, depth+1)
			return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1" || h == "0.0.0.0"
		}
		// A function of the package that returns only such addresses.
		return w.everyReturn(x, false, depth, w.loopback)
	case *ssa.Parameter:
		if a, ok := f.arg(x); ok {
			return w.loopback(a, f.parent, depth+1)
		}
		if f == nil {
			return w.loopbackFromCallers(x, depth)
		}
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		switch at := x.X.(type) {
		case *ssa.Global:
			// A package variable that the package sets only to such addresses.
			return w.everyStore(at, false, depth, w.loopback)
		case *ssa.IndexAddr:
			// An element of a list of them (urls[0]).
			return w.loopbackList(at.X, depth+1)
		}
		// srv.URL of an httptest.Server: it listens on the loopback interface.
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			if fv := flow.FieldVar(fa); fv != nil && fv.Name() == "URL" && typeis.Named(fa.X.Type(), "net/http/httptest", "Server") {
				return true
			}
			// srv.Addr of an http.Server: the address this process listens on (a readiness
			// poll of the server it just started).
			if fv := flow.FieldVar(fa); fv != nil && fv.Name() == "Addr" && typeis.Named(fa.X.Type(), knowledge.HTTPPath, "Server") {
				return true
			}
		}
	}
	return false
}

// loopbackList reports whether every element of the slice v is a loopback address (see
// loopback): elements stored where the slice is made (make, a literal, appends), a package
// variable the package sets only to such slices, or what a function of the package returns.
func (w *walker) loopbackList(v ssa.Value, depth int) bool {
	if depth > 16 {
		return false
	}
	switch x := flow.Unwrap(v).(type) {
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
			return w.everyStore(g, true, depth, func(s ssa.Value, _ *frame, d int) bool { return w.loopbackList(s, d) })
		}
	case *ssa.Call:
		if _, ok := x.Call.Value.(*ssa.Builtin); !ok {
			return w.everyReturn(x, true, depth, func(r ssa.Value, _ *frame, d int) bool { return w.loopbackList(r, d) })
		}
	}
	elems, ok := flow.SliceElems(flow.Unwrap(v))
	if !ok || len(elems) == 0 {
		return false
	}
	for _, e := range elems {
		if !w.loopback(e, nil, depth+1) {
			return false
		}
	}
	return true
}

// everyStore reports whether the package stores into g, whose address it does not hand on,
// at least one value and only values of which is true; for an exported variable, one of them
// in a function other than the package's initializer.
func (w *walker) everyStore(g *ssa.Global, list bool, depth int, is func(ssa.Value, *frame, int) bool) bool {
	return w.st.addrMemo(addrKey{g, list}, func() bool { return w.everyStore1(g, depth, is) })
}

func (w *walker) everyStore1(g *ssa.Global, depth int, is func(ssa.Value, *frame, int) bool) bool {
	stored := w.st.stores.Globals[g]
	if len(stored) == 0 || w.st.stores.Taken[g] || depth > 16 {
		return false
	}
	if g.Object().Exported() && w.st.pass.Pkg.Name() != "main" && !slices.ContainsFunc(stored, func(s ssa.Value) bool {
		var in *ssa.Function
		switch s := s.(type) {
		case ssa.Instruction:
			in = s.Parent()
		case *ssa.Const:
			in = w.st.stores.StoredIn[s]
		}
		return in != nil && in.Synthetic == "" // (not the package's initializer)
	}) {
		// Another package may set it (var BaseURL = "http://localhost:8080", set from a
		// flag): only a package that sets it itself as it runs (Start making the addresses
		// of the process it starts) decides what it holds.
		return false
	}
	for _, s := range stored {
		if !is(s, nil, depth+1) {
			return false
		}
	}
	return true
}

// everyReturn reports whether the function of the package that c calls (statically) returns,
// as its only result, only values of which is true.
func (w *walker) everyReturn(c *ssa.Call, list bool, depth int, is func(ssa.Value, *frame, int) bool) bool {
	fn := c.Call.StaticCallee()
	if fn == nil {
		return false
	}
	return w.st.addrMemo(addrKey{fn, list}, func() bool { return w.everyReturn1(fn, depth, is) })
}

func (w *walker) everyReturn1(fn *ssa.Function, depth int, is func(ssa.Value, *frame, int) bool) bool {
	if fn.Pkg != w.st.pkg || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 || depth > 16 {
		return false
	}
	n := 0
	for r := range returned(fn, 0) {
		if !is(r, nil, depth+1) {
			return false
		}
		n++
	}
	return n > 0
}

// addrKey is a function whose results, or a package variable whose values, loopback judged:
// as addresses, or as lists of them.
type addrKey struct {
	of   any
	list bool
}

// addrMemo returns what compute says of k, once per package (false while it is computed: a
// cycle is no evidence).
func (st *state) addrMemo(k addrKey, compute func() bool) bool {
	if r, ok := st.addrs[k]; ok {
		return r
	}
	st.addrs[k] = false
	r := compute()
	st.addrs[k] = r
	return r
}

// loopbackFromCallers reports whether every call, in the package, of the function that has
// parameter p passes a loopback address for it (waitForHealth(ctx, "http://127.0.0.1:"+port)),
// when the function is one other packages cannot call.
func (w *walker) loopbackFromCallers(p *ssa.Parameter, depth int) bool {
	fn := p.Parent()
	idx := slices.Index(fn.Params, p)
	if idx < 0 || fn.Parent() != nil || depth > 8 {
		return false
	}
	if obj := fn.Object(); obj == nil || obj.Exported() && fn.Pkg.Pkg.Name() != "main" {
		return false
	}
	callers := w.st.callGraph()[fn]
	if len(callers) == 0 {
		return false
	}
	n := 0
	for _, caller := range callers {
		for call := range flow.Calls(caller) {
			c := call.Common()
			if c.StaticCallee() != fn {
				continue
			}
			if c.IsInvoke() || idx >= len(c.Args) || !w.st.walker(caller).loopback(c.Args[idx], nil, depth+4) {
				return false
			}
			n++
		}
	}
	return n > 0
}

func loopbackHost(s string) bool {
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	for _, p := range []string{"localhost:", "localhost/", "127.", "[::1]", "0.0.0.0:", ":"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return s == "localhost"
}
