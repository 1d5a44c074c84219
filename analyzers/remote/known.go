package remote

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// This file holds the rules that say which calls leave the process and how each gets a
// bound; the tables they read are in the knowledge package (httpclients.go, sdkclients.go,
// contextwrappers.go). How to teach the model a new client library:
//
//  1. If the library's calls take a context.Context and nothing else can bound them (like
//     database/sql's ...Context methods), add a rule whose eval is ctxArg(i).
//  2. If a client or dialer struct carries the timeout (like http.Client.Timeout), describe the
//     struct as a knowledge.ClientType (the fields that bound it) and evaluate the call with
//     w.obj on the receiver, combined with either() and the request's or call's context.
//  3. If a constructor of the library returns a client known to have no timeout, add it to
//     knowledge.NoTimeoutConstructors.
//  4. If an SDK's client methods send requests that only the context they take first bounds
//     (its default HTTP client has no Timeout), describe them in knowledge.SDKClients: by
//     package, receiver and signature, so that every service client of the SDK is known at once.
//  5. If a function only passes a context through (adds values, cancellation, a span), add it
//     to knowledge.ContextWrappers so that the walk goes on through it; functions not listed
//     there stop the walk with "unknown", which keeps the checks quiet.
//
// Add a test case for each new rule in testdata/src/remote (the -remote.report output) and,
// when it changes what notimeout reports, in testdata/src/notimeout.

const (
	sqlPkg  = "database/sql"
	sqlxPkg = "github.com/jmoiron/sqlx"
)

// remotePkgs are the packages whose presence among a package's (transitive) imports makes it
// worth analysing.
var remotePkgs = []string{knowledge.HTTPPath, knowledge.NetPath, knowledge.TLSPath, sqlPkg, knowledge.GRPCPath}

// sdkCall reports whether fn is a method of an SDK's client that sends requests bounded only
// by its context (its first argument).
func sdkCall(fn *types.Func) bool { return sdkClientOf(fn) != nil }

// sdkClientOf returns the description of the SDK client whose method fn is, or nil.
func sdkClientOf(fn *types.Func) *knowledge.SDKClient {
	id := flow.ID(fn)
	if id.Recv == "" {
		return nil
	}
	sig := fn.Signature()
	params, results := sig.Params(), sig.Results()
	for i := range knowledge.SDKClients {
		c := &knowledge.SDKClients[i]
		if !c.Covers(id) {
			continue
		}
		if params.Len() == 0 || !typeis.Context(params.At(0).Type()) || results.Len() == 0 || !typeis.Error(results.At(results.Len()-1).Type()) {
			continue
		}
		if c.Input != "" && !slices.ContainsFunc(slices.Collect(params.Variables()), func(p *types.Var) bool { return pointsTo(p.Type(), c.Input) }) {
			continue
		}
		switch last := params.At(params.Len() - 1).Type(); {
		case c.Options == "...func":
			if s, isSlice := last.(*types.Slice); !sig.Variadic() || !isSlice || !isFunc(s.Elem()) {
				continue
			}
		case c.Options != "" && !pointsTo(last, c.Options):
			continue
		}
		return c
	}
	return nil
}

// pointsTo reports whether t is a pointer to a named type whose name ends with suffix.
func pointsTo(t types.Type, suffix string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && strings.HasSuffix(n.Obj().Name(), suffix)
}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// deadlineMakers are the functions whose context has a deadline.
var deadlineMakers = map[string]bool{
	"WithTimeout": true, "WithDeadline": true, "WithTimeoutCause": true, "WithDeadlineCause": true,
}

// MakesDeadline reports whether id is one of context's functions whose context has a deadline
// (see deadlineMakers).
func MakesDeadline(id flow.FuncID) bool {
	return id.Pkg == "context" && id.Recv == "" && deadlineMakers[id.Name]
}

// A rule says that calls of one function or method leave the process, and how they are bounded.
type rule struct {
	kind   Kind
	name   string // for messages
	method string // the HTTP method a package function or client method fixes
	// eval says what bounds one call; ok false means this call does not leave the process
	// after all (net.Dial of a UDP socket, a non-blocking gRPC dial).
	eval func(w *walker, s *flow.Site) (v verdict, ok bool)
}

var rules = map[flow.FuncID]rule{}

func init() {
	add := func(pkg, recv, name string, kind Kind, method string, eval func(w *walker, s *flow.Site) (verdict, bool)) {
		display := shortPkg(pkg) + "."
		if recv != "" {
			display += recv + "."
		}
		rules[flow.FuncID{Pkg: pkg, Recv: recv, Name: name}] = rule{kind: kind, name: display + name, method: method, eval: eval}
	}

	// net/http. The package functions use http.DefaultClient and a request without a context.
	for name, method := range map[string]string{"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST"} {
		add(knowledge.HTTPPath, "", name, HTTP, method, func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.defaultClient(), noContext()), true
		})
		add(knowledge.HTTPPath, "Client", name, HTTP, method, func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.obj(s.Recv, nil, knowledge.HTTPClient), noContext()), true
		})
	}
	add(knowledge.HTTPPath, "Client", "Do", HTTP, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, knowledge.HTTPClient), w.req(s.Arg(0), nil)), true
	})
	// go-retryablehttp: every attempt goes through the client's HTTPClient.
	for name, method := range map[string]string{"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST"} {
		add(knowledge.RetryableHTTPPath, "Client", name, HTTP, method, func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.obj(s.Recv, nil, knowledge.RetryableHTTPClient), noContext()), true
		})
	}
	add(knowledge.RetryableHTTPPath, "Client", "Do", HTTP, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, knowledge.RetryableHTTPClient), w.req(s.Arg(0), nil)), true
	})
	// resty v2: every attempt goes through the client's http.Client; the request's context is
	// the one SetContext gives it.
	for name, method := range knowledge.RestySends {
		add(knowledge.RestyClient.Pkg, "Request", name, HTTP, method, func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.restyClient(s.Recv), w.req(s.Recv, nil)), true
		})
	}
	roundTrip := func(w *walker, s *flow.Site) (verdict, bool) { return w.req(s.Arg(0), nil), true }
	add(knowledge.HTTPPath, "Transport", "RoundTrip", HTTP, "", roundTrip)
	add(knowledge.HTTPPath, "RoundTripper", "RoundTrip", HTTP, "", roundTrip)

	// net and crypto/tls.
	add(knowledge.NetPath, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(s.Arg(0), s.Arg(1))
	})
	add(knowledge.NetPath, "", "DialTCP", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(nil, s.Arg(2))
	})
	add(knowledge.NetPath, "", "DialTimeout", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		if d, ok := flow.IntConst(s.Arg(2)); ok && d <= 0 {
			return noContext(), w.connects(s.Arg(0), s.Arg(1)) // a zero timeout is none
		}
		return boundedFor("net.DialTimeout", s.Arg(2)), w.connects(s.Arg(0), s.Arg(1))
	})
	add(knowledge.NetPath, "Dialer", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, knowledge.NetDialer), noContext()), w.connects(s.Arg(0), s.Arg(1))
	})
	add(knowledge.NetPath, "Dialer", "DialContext", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, knowledge.NetDialer), w.ctx(s.Arg(0), nil)), w.connects(s.Arg(1), s.Arg(2))
	})
	// x/net/websocket's Dial dials with a zero net.Dialer and then shakes hands, with no
	// deadline on either (DialConfig takes a Config whose Dialer may have one).
	add(knowledge.WebSocketPath, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), true
	})
	for _, pkg := range knowledge.RedigoPaths {
		for name, opts := range map[string]int{"Dial": 2, "DialContext": 3, "DialURL": 1, "DialURLContext": 2} {
			add(pkg, "", name, Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
				return w.redigoDial(s.Variadic(opts)), true
			})
		}
	}
	// gophercloud's AuthenticatedClient: the identity requests go through the zero http.Client
	// of the ProviderClient it makes, bounded only by the context it is given, if any.
	fresh := func(name string) verdict {
		return verdict{k: vUnbounded, origin: &Origin{Kind: Inside, Type: knowledge.HTTPClient.Display, Field: knowledge.HTTPClient.Setting, Name: name}}
	}
	add(knowledge.GophercloudAuth[0], "", "AuthenticatedClient", HTTP, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(fresh("openstack.AuthenticatedClient"), noContext()), true
	})
	add(knowledge.GophercloudAuth[0], "", "AuthenticatedClientWithContext", HTTP, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(fresh("openstack.AuthenticatedClientWithContext"), w.ctx(s.Arg(0), nil)), true
	})
	add(knowledge.GophercloudAuth[1], "", "AuthenticatedClient", HTTP, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(fresh("openstack.AuthenticatedClient"), w.ctx(s.Arg(0), nil)), true
	})
	// net/smtp dials with net.Dial: no timeout, and none can be given.
	add(knowledge.SMTPPath, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(nil, s.Arg(0))
	})
	add(knowledge.SMTPPath, "", "SendMail", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(nil, s.Arg(0))
	})
	add(knowledge.SSHPath, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Arg(2), nil, knowledge.SSHClientConfig), noContext()), w.connects(s.Arg(0), s.Arg(1))
	})
	for _, name := range []string{"Dial", "DialAndSend"} {
		add(knowledge.MailPath, "Dialer", name, Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.obj(s.Recv, nil, knowledge.MailDialer), noContext()), true
		})
	}
	add(knowledge.TLSPath, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(nil, s.Arg(1))
	})
	add(knowledge.TLSPath, "", "DialWithDialer", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Arg(0), nil, knowledge.NetDialer), noContext()), w.connects(nil, s.Arg(2))
	})
	add(knowledge.TLSPath, "Dialer", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, knowledge.TLSDialer), noContext()), w.connects(nil, s.Arg(1))
	})
	add(knowledge.TLSPath, "Dialer", "DialContext", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, knowledge.TLSDialer), w.ctx(s.Arg(0), nil)), w.connects(nil, s.Arg(2))
	})

	// gRPC dials block only with WithBlock (or WithReturnConnectionError); NewClient never
	// blocks. Calls are recognised by their signature (see grpcCall).
	add(knowledge.GRPCPath, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return w.grpcDial(s.Variadic(1), noContext())
	})
	add(knowledge.GRPCPath, "", "DialContext", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return w.grpcDial(s.Variadic(2), w.ctx(s.Arg(0), nil))
	})

	// database/sql: the methods without a context have none at all; the ...Context forms
	// (and BeginTx) are bounded by their context.
	noCtx := func(w *walker, s *flow.Site) (verdict, bool) { return noContext(), true }
	ctxArg := func(w *walker, s *flow.Site) (verdict, bool) { return w.ctx(s.Arg(0), nil), true }
	for _, recv := range []string{"DB", "Conn", "Tx", "Stmt"} {
		for _, name := range []string{"Query", "QueryRow", "Exec"} {
			if recv == "Conn" {
				continue // sql.Conn has only the context forms
			}
			add(sqlPkg, recv, name, SQL, "", noCtx)
		}
		for _, name := range []string{"QueryContext", "QueryRowContext", "ExecContext"} {
			add(sqlPkg, recv, name, SQL, "", ctxArg)
		}
		if recv != "Stmt" {
			add(sqlPkg, recv, "PrepareContext", SQL, "", ctxArg)
			if recv != "Conn" {
				add(sqlPkg, recv, "Prepare", SQL, "", noCtx)
			}
		}
	}
	add(sqlPkg, "DB", "Begin", SQL, "", noCtx)
	add(sqlPkg, "DB", "BeginTx", SQL, "", ctxArg)
	add(sqlPkg, "Conn", "BeginTx", SQL, "", ctxArg)

	// sqlx: its own query methods, alike (DB and Tx embed database/sql's, whose methods are
	// the rules above), and the package functions taking a Queryer or Execer.
	for _, recv := range []string{"DB", "Tx", ""} {
		for _, name := range []string{"Get", "Select", "Queryx", "QueryRowx", "NamedExec", "NamedQuery", "MustExec", "Preparex", "PrepareNamed"} {
			if recv == "" && name == "QueryRowx" {
				continue
			}
			add(sqlxPkg, recv, name, SQL, "", noCtx)
			add(sqlxPkg, recv, name+"Context", SQL, "", ctxArg)
		}
	}
	add(sqlxPkg, "DB", "Beginx", SQL, "", noCtx)
	add(sqlxPkg, "DB", "MustBegin", SQL, "", noCtx)
	add(sqlxPkg, "DB", "BeginTxx", SQL, "", ctxArg)
	add(sqlxPkg, "DB", "MustBeginTx", SQL, "", ctxArg)
}

// grpcCall reports whether fn has the signature of a gRPC client call: a context first, a
// variadic ...grpc.CallOption last, and an error last among the results. Generated stubs,
// ClientConnInterface.Invoke and NewStream all have it. A call returning an interface (a
// stream) is a streaming call.
func grpcCall(fn *types.Func) (stream, ok bool) {
	sig, isSig := fn.Type().(*types.Signature)
	if !isSig || !sig.Variadic() {
		return false, false
	}
	params, results := sig.Params(), sig.Results()
	if params.Len() < 2 || !typeis.Context(params.At(0).Type()) {
		return false, false
	}
	last, isSlice := params.At(params.Len() - 1).Type().(*types.Slice)
	if !isSlice || !typeis.Named(last.Elem(), knowledge.GRPCPath, "CallOption") {
		return false, false
	}
	if results.Len() == 0 || !typeis.Error(results.At(results.Len()-1).Type()) {
		return false, false
	}
	if results.Len() == 2 {
		_, stream = results.At(0).Type().Underlying().(*types.Interface)
	}
	return stream, true
}

// pluginConn reports whether the gRPC stub recv was made from a connection hashicorp/go-plugin
// hands out (knowledge.PluginPkg): the *grpc.ClientConn parameter of a function that is also
// handed the plugin's *GRPCBroker (a GRPCPlugin's GRPCClient), or GRPCBroker.Dial's. The RPC
// goes to a process on this machine.
func (st *state) pluginConn(recv ssa.Value) bool {
	if recv == nil {
		return false
	}
	found := false
	st.stores.Backward(recv, 64, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Parameter:
			if typeis.Named(x.Type(), knowledge.GRPCPath, "ClientConn") {
				found = slices.ContainsFunc(x.Parent().Params, func(p *ssa.Parameter) bool {
					return typeis.Named(p.Type(), knowledge.PluginPkg, "GRPCBroker")
				})
			}
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			found = id.Pkg == knowledge.PluginPkg && id.Recv == "GRPCBroker" && id.Name == "Dial"
		}
		return !found
	})
	return found
}

// connectCall reports whether fn has the signature of a Connect client call (see
// knowledge.ConnectPackage): (ctx, *connect.Request[T]) and (*connect.Response[U], error) for
// a unary call (generated client methods, Client.CallUnary), or a
// *connect.ServerStreamForClient[U] for a server stream.
func connectCall(fn *types.Func) (stream, ok bool) {
	sig, isSig := fn.Type().(*types.Signature)
	if !isSig || sig.Recv() == nil || sig.Params().Len() != 2 || sig.Results().Len() != 2 {
		return false, false
	}
	params, results := sig.Params(), sig.Results()
	if !typeis.Context(params.At(0).Type()) || !typeis.Error(results.At(1).Type()) || !connectType(params.At(1).Type(), "Request") {
		return false, false
	}
	switch {
	case connectType(results.At(0).Type(), "Response"):
		return false, true
	case connectType(results.At(0).Type(), "ServerStreamForClient"):
		return true, true
	}
	return false, false
}

// connectType reports whether t is a pointer to Connect's generic type name.
func connectType(t types.Type, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Name() == name && knowledge.ConnectPackage(n.Obj().Pkg().Path())
}

// connects reports whether dialing addr on network makes a connection with a peer that can
// stall. UDP, IP and Unix sockets (when network is a constant naming one) do not wait for a
// peer; neither does a connection to the address of a listener the program holds
// (ln.Addr()), which the kernel accepts at once.
func (w *walker) connects(network, addr ssa.Value) bool {
	if s, ok := flow.StringConst(network); ok {
		if peerless(s) {
			return false
		}
	} else if network != nil && w.callersNetwork(network, 0) {
		return false
	}
	return addr == nil || !w.listenerAddr(addr, 0)
}

// peerless reports whether network names sockets that do not wait for a peer.
func peerless(network string) bool {
	for _, p := range []string{"udp", "ip", "unix"} {
		if strings.HasPrefix(network, p) {
			return true
		}
	}
	return false
}

// callersNetwork reports whether the network v names is its callers' to choose and none of
// the package's calls chooses one that waits for a peer: v is a parameter of a function (or a
// closure's variable bound to one: func() (net.Conn, error) { return net.Dial(network, addr)
// }), and the package's calls of that function (argsGiven) pass Unix, UDP or IP networks, or
// there are none and other packages may call it (status.New("unix", sockPath)). Whether a dial
// of the network a caller names can stall is the caller's to say.
func (w *walker) callersNetwork(v ssa.Value, depth int) bool {
	p, ok := flow.Unwrap(flow.Captured(v)).(*ssa.Parameter)
	if !ok || depth > 4 || p.Parent().Parent() != nil || p.Parent().Pkg == nil {
		return false
	}
	args, onlyThese := w.st.argsGiven(p)
	for _, a := range args {
		if s, ok := flow.StringConst(a); ok && !peerless(s) || !ok && !w.callersNetwork(a, depth+1) {
			return false
		}
	}
	if onlyThese {
		return len(args) > 0
	}
	obj := p.Parent().Object()
	return obj != nil && obj.Exported() && p.Parent().Pkg.Pkg.Name() != "main"
}

// listenerAddr reports whether the address v is computed from a listener's Addr(), in the
// function or through the struct fields, package variables and functions of the package it
// comes from, when every value these hold or return is one (a harness keeping the address of
// the server it started).
func (w *walker) listenerAddr(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	all := func(vals []ssa.Value) bool {
		for _, x := range vals {
			if !w.listenerAddr(x, depth+1) {
				return false
			}
		}
		return len(vals) > 0
	}
	self := false
	flow.Backward(v, 64, func(v ssa.Value) bool {
		if self {
			return false
		}
		switch x := v.(type) {
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			if id.Pkg == knowledge.NetPath && id.Name == "Addr" && strings.HasSuffix(id.Recv, "Listener") {
				self = true
			} else if fn := x.Common().StaticCallee(); fn != nil && fn.Pkg == w.st.pkg {
				self = all(slices.Collect(returned(fn, 0)))
			}
		case *ssa.UnOp:
			self = all(w.st.stores.Loaded(x))
		}
		return !self
	})
	return self
}

// pkgNames are the names of the packages whose name is not their path's last element.
var pkgNames = map[string]string{knowledge.RetryableHTTPPath: "retryablehttp", knowledge.RestyClient.Pkg: "resty"}

func shortPkg(path string) string {
	if name, ok := pkgNames[path]; ok {
		return name
	}
	if i := strings.LastIndex(path, "/"); i >= 0 {
		return path[i+1:]
	}
	return path
}
