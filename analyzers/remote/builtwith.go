package remote

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// How a client was built: the default client, a library's constructor, a transport that
// dials only Unix sockets.

// globalID names a package variable as the tables do.
func globalID(g *ssa.Global) flow.FuncID {
	if obj := g.Object(); obj != nil && obj.Pkg() != nil {
		return flow.FuncID{Pkg: obj.Pkg().Path(), Name: obj.Name()}
	}
	return flow.FuncID{}
}

// isDefaultClientLoad reports whether v is the value of http.DefaultClient (a load of the
// variable).
func isDefaultClientLoad(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	return ok && isDefaultClient(g)
}

func isDefaultClient(g *ssa.Global) bool {
	obj := g.Object()
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == knowledge.HTTPPath && obj.Name() == "DefaultClient"
}

// builtWith says whether recv, the receiver of a call of another package's method that sends
// through a client of its own, was built with an http.Client its maker handed in, directly or
// through an option (NewAPI(url, WithHTTPClient(&http.Client{Timeout: 30 * time.Second}))):
// vBounded when that client has a timeout, vUnbounded when it has none or its timeout is not
// known (the caller chose it, not the package's default), vNone when no client was handed in.
// A parameter is followed to the calls of its function in the package, which must all agree;
// a struct field of the package to what the package stores into it.
func (w *walker) builtWith(recv ssa.Value) vkind {
	return w.builtWithAt(recv, 0)
}

func (w *walker) builtWithAt(recv ssa.Value, depth int) vkind {
	if recv == nil {
		return vNone
	}
	if p, ok := flow.Unwrap(recv).(*ssa.Parameter); ok {
		fn := p.Parent()
		idx := slices.Index(fn.Params, p)
		callers := w.st.callGraph()[fn]
		if idx < 0 || len(callers) == 0 || depth >= 2 {
			return vNone
		}
		k := vNone
		for _, caller := range callers {
			for call := range flow.Calls(caller) {
				c := call.Common()
				if c.IsInvoke() || c.StaticCallee() != fn {
					continue
				}
				if idx >= len(c.Args) {
					return vNone
				}
				ck := w.st.walker(caller).builtWithAt(c.Args[idx], depth+1)
				if ck == vNone || k != vNone && ck != k {
					return vNone
				}
				k = ck
			}
		}
		return k
	}
	// Through the package's struct fields too: an adapter that keeps the SDK client it built
	// in a field of its own (b.sdk.PullRequests.Get(...)) calls what that constructor made.
	hcs := w.handedClients(recv)
	if len(hcs) == 0 {
		return vNone
	}
	given := 0
	for _, hc := range hcs {
		switch {
		case w.obj(hc, nil, knowledge.HTTPClient).k == vBounded:
			given++
		case w.forAPI(hc):
			// The client that package makes for its API, no Timeout set on it here: that
			// package's finding, as its default's is.
		default:
			return vUnbounded // a client handed in: the caller's choice
		}
	}
	if given == 0 {
		return vNone
	}
	return vBounded
}

// builtWithOwned reports whether every client recv was built with, here, is the one owned
// describes (Passed.Owned): the package's default, made without a timeout and handed to the
// value its own constructor builds. That client stays the cause, reported where it is made.
// It walks the clients again: call it on a fresh walker.
func (w *walker) builtWithOwned(recv ssa.Value, owned string) bool {
	if owned == "" || recv == nil {
		return false
	}
	if _, ok := flow.Unwrap(recv).(*ssa.Parameter); ok {
		return false
	}
	hcs := w.handedClients(recv)
	for _, hc := range hcs {
		r := w.obj(hc, nil, knowledge.HTTPClient)
		if r.k != vUnbounded || r.origin == nil || r.origin.describe(w.st.pass.Fset, token.NoPos) != owned {
			return false
		}
	}
	return len(hcs) > 0
}

// forAPI reports whether hc is the result of a call of another package's function that makes
// the client for that package's API (Built.ForAPI).
func (w *walker) forAPI(hc ssa.Value) bool {
	call, ok := flow.Unwrap(hc).(*ssa.Call)
	if !ok {
		return false
	}
	fn := call.Call.StaticCallee()
	if fn == nil {
		return false
	}
	obj, _ := fn.Object().(*types.Func)
	b, ok := w.st.constructed(obj, 0, knowledge.HTTPClient)
	return ok && b.ForAPI
}

// handedClients returns the *http.Client values that recv, a client of another package (a
// Connect client, an SDK's wrapper), was built with: the arguments (each way a phi joins) of
// each call of the package's production code that made it, found through the package's
// variables and struct fields (a test's stand-in stored into the same field is not what the
// package runs); nil when none is seen. A nil handed in is no client: the package's default.
func (w *walker) handedClients(recv ssa.Value) []ssa.Value {
	if recv == nil {
		return nil
	}
	var hcs []ssa.Value
	w.st.stores.Backward(recv, 32, func(x ssa.Value) bool {
		ctor, ok := x.(*ssa.Call)
		if !ok {
			return true
		}
		if testcode.Made(w.st.pass, ctor) {
			return false
		}
		var found []ssa.Value
		for _, arg := range ctor.Call.Args {
			flow.Backward(arg, 32, func(y ssa.Value) bool {
				if !typeis.Named(y.Type(), "net/http", "Client") {
					return len(found) == 0
				}
				if _, ok := y.(*ssa.Phi); ok {
					return true
				}
				if k, ok := y.(*ssa.Const); !ok || !k.IsNil() {
					found = append(found, y)
				}
				return false
			})
		}
		hcs = append(hcs, found...)
		return false
	})
	return hcs
}

// unixTransport reports whether what is stored into a client's Transport field fa is an
// http.Transport literal whose DialContext or Dial is a function that dials only Unix domain
// sockets (net.Dialer.DialContext(ctx, "unix", path), net.Dial("unix", path)).
func unixTransport(fa *ssa.FieldAddr) bool {
	found := false
	for _, rr := range *fa.Referrers() {
		st, ok := rr.(*ssa.Store)
		if !ok || st.Addr != fa {
			continue
		}
		v := flow.Unwrap(st.Val)
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = flow.Unwrap(mi.X)
		}
		alloc, ok := v.(*ssa.Alloc)
		if !ok || !typeis.Named(alloc.Type(), "net/http", "Transport") || !transportDials(alloc, dialsOnlyUnix) {
			return false
		}
		found = true
	}
	return found
}

// dialsOnlyUnix reports whether fn dials, and every dial it makes is of a Unix-socket network
// (see unixDial).
func dialsOnlyUnix(fn *ssa.Function) bool {
	dials := 0
	for call := range flow.Calls(fn) {
		callee := flow.Callee(call.Common())
		if callee == nil {
			continue
		}
		dial, unix := unixDial(call.Common(), callee)
		if dial && !unix {
			return false
		}
		if dial {
			dials++
		}
	}
	return dials > 0
}

// onlyWhenGiven reports whether st stores a caller's value (a parameter, or a field of one:
// cfg.RequestTimeout, cfg.HTTPClient) only under a test that the same value is set (!= 0, > 0,
// != nil) dominating it: the store happens only when the caller gives one, and by default the
// field keeps its zero value.
func onlyWhenGiven(st *ssa.Store) bool {
	v := flow.Unwrap(st.Val)
	place := flow.PlaceOf(v)
	if !flow.Given(place.Root) {
		return false
	}
	return flow.GuardedBySet(st.Block(), place)
}

// hookTimeout names what bounds a dial made in an http.Transport's dial hook.
const hookTimeout = "the HTTP request it dials for"

// transportHook reports whether fn is a function literal stored into the Dial, DialContext,
// DialTLS or DialTLSContext field of an http.Transport: it dials for the transport's requests.
func transportHook(fn *ssa.Function) bool {
	parent := fn.Parent()
	if parent == nil {
		return false
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			var v ssa.Value
			switch x := instr.(type) {
			case *ssa.MakeClosure:
				if x.Fn == fn {
					v = x
				}
			case *ssa.Store:
				if x.Val == fn {
					return hookField(x.Addr)
				}
			}
			if v == nil || v.Referrers() == nil {
				continue
			}
			for _, r := range *v.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Val == v && hookField(st.Addr) {
					return true
				}
			}
		}
	}
	return false
}

// hookField reports whether addr is the address of an http.Transport's dial hook.
func hookField(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	fv := flow.FieldVar(fa)
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if fv == nil || !ok || !typeis.Named(ptr.Elem(), "net/http", "Transport") {
		return false
	}
	switch fv.Name() {
	case "Dial", "DialContext", "DialTLS", "DialTLSContext":
		return true
	}
	return false
}
