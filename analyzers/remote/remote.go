package remote

import (
	_ "embed"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/guard"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

//go:embed doc.go
var doc string

// Analyzer finds the calls of a package that leave the process and says what bounds each.
// It reports nothing unless -remote.report is set.
var Analyzer = &analysis.Analyzer{
	Name:       "remote",
	Doc:        docs.MustExtract(doc, "remote"),
	URL:        docs.URL("remote"),
	Requires:   []*analysis.Analyzer{ssapkg.Analyzer, ssapkg.Stores},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(paramFact), new(resultFact), new(reachFact), new(configFact), new(concreteFact), new(requestFact), new(connFact), new(makerFact), new(varFact), new(sentFact)},
	Run:        guard.Run("remote", run),
}

var reportCalls bool

func init() {
	Analyzer.Flags.BoolVar(&reportCalls, "report", false, "report every remote call found and what bounds it (for debugging the model)")
}

// Result holds the remote calls of a package, in source order.
type Result struct {
	Calls []*Call
	// Configs are the SDK configurations this package loads without an HTTP client and hands
	// out through its exported functions, by load call.
	Configs []*Config
	// APIClients are the clients without a timeout that exported functions make for the
	// package's API.
	APIClients []*APIClient
	byInstr    map[ssa.CallInstruction]*Call
	sends      []*Send
	sendBy     map[ssa.CallInstruction]*Send
	reach      *reacher
	st         *state // nil where nothing in the package can leave the process
}

// Of returns the remote call made by instr, or nil when instr is not one.
func (r *Result) Of(instr ssa.Instruction) *Call {
	c, ok := instr.(ssa.CallInstruction)
	if !ok || r == nil {
		return nil
	}
	return r.byInstr[c]
}

func (r *Result) add(c *Call) {
	r.Calls = append(r.Calls, c)
	r.byInstr[c.Instr] = c
}

// state is the model of one package being built.
type state struct {
	pass *analysis.Pass
	pkg  *ssa.Package

	loops map[*ssa.Function][]*loops.Loop // loops.Of, for untilDone

	stores         *flow.Stores                   // values stored into struct fields and package variables
	seams          map[*ssa.Function]bool         // the functions package variables hold as seams (flow.Stores.Seams)
	fieldTouched   map[*types.Var]bool            // fields whose own fields are assigned (f.Timeout = ...)
	unsetVia       map[*types.Var]*ssa.Store      // fields whose client's Timeout is set to a setting zero by default
	globalTouched  map[*ssa.Global]bool           // package variables whose fields are assigned
	untraced       map[*knowledge.ClientType]bool // types whose timeout is set on a value the model cannot trace
	defaultTouched bool                           // http.DefaultClient is reassigned
	summaries      map[*ssa.Function][]Passed     // the package's own parameter facts
	imported       map[*types.Func]*paramFact     // memo of imported facts (nil: none)
	results        map[*types.Func]*resultFact    // memo of imported result facts (nil: none)
	handed         map[*ssa.Function]bool         // functions that make an APIClient
	configs        map[*types.Func]*configFact    // memo of imported config facts (nil: none)
	readOnly       map[*ssa.Parameter]bool        // memo of usesOnly for the package's functions
	addrs          map[addrKey]bool               // memo of loopback's functions and variables
	names          map[namedKey]token.Pos         // memo of named
	funcs          []*ssa.Function
	bounds         map[*ssa.Function]Contract        // memo of bound
	callers        map[*ssa.Function][]*ssa.Function // static callers, built on first need
	ifaces         map[string][]namedIface           // interfaces of imported packages, by method name
	embedded       int                               // 0: not known yet; 1: an embedded database driver is imported; 2: not; 3: both an embedded and a server driver (judged by file)
	streamFields   map[*types.Var]bool               // fields the package reads as a stream (see streamField)
	dials          map[*ssa.Call]dialInterceptors    // memo of a gRPC dial's interceptors
	foreignConns   map[*ssa.Global][]ssa.Value       // memo of the connections given to another package's variable
	makerFacts     map[*types.Func]*makerFact        // memo of imported maker facts (nil: none)
	awsGiven       int8                              // memo of awsClientGiven: 0 not known yet, 1 yes, 2 no
	mirrors        map[mirrorKey]*types.Func         // memo of sdkMirror
	impls          *flow.Implementers                // the package's implementations of its interfaces
	sentFields     map[*types.Var]bool               // fields the package sends as credentials (headerFields)
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{byInstr: make(map[ssa.CallInstruction]*Call), sendBy: make(map[ssa.CallInstruction]*Send)}
	if ssapkg.IsStd(pass) {
		return res, nil
	}
	ssaRes := pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA)
	res.reach = &reacher{pass: pass, pkg: ssaRes.Pkg, remote: make(map[ssa.CallInstruction]bool), imported: make(map[*types.Func]*reachFact), impls: flow.NewImplementers(ssaRes.Pkg), stores: pass.ResultOf[ssapkg.Stores].(*flow.Stores)}
	if !importsRemote(pass.Pkg) {
		// Fast path: nothing here can leave the process but through what it calls dynamically.
		res.reach.compute(ssapkg.AllFuncs(ssaRes))
		return res, nil
	}
	st := &state{
		pass:          pass,
		pkg:           ssaRes.Pkg,
		fieldTouched:  make(map[*types.Var]bool),
		unsetVia:      make(map[*types.Var]*ssa.Store),
		globalTouched: make(map[*ssa.Global]bool),
		untraced:      make(map[*knowledge.ClientType]bool),
		summaries:     make(map[*ssa.Function][]Passed),
		imported:      make(map[*types.Func]*paramFact),
		results:       make(map[*types.Func]*resultFact),
		handed:        make(map[*ssa.Function]bool),
		configs:       make(map[*types.Func]*configFact),
		readOnly:      make(map[*ssa.Parameter]bool),
		addrs:         make(map[addrKey]bool),
		names:         make(map[namedKey]token.Pos),
		bounds:        make(map[*ssa.Function]Contract),
		dials:         make(map[*ssa.Call]dialInterceptors),
		foreignConns:  make(map[*ssa.Global][]ssa.Value),
	}
	st.impls = res.reach.impls
	res.st = st
	funcs := ssapkg.AllFuncs(ssaRes)
	st.funcs = funcs
	st.stores = pass.ResultOf[ssapkg.Stores].(*flow.Stores)
	st.index(funcs)

	// Calls that leave the process themselves; then the functions that pass their context to
	// one of them (facts), and the calls of such functions, here or in imported packages.
	for _, fn := range funcs {
		for call := range flow.Calls(fn) {
			if c := st.classify(call); c != nil {
				res.add(c)
			}
		}
	}
	for _, c := range st.viaCalls(funcs, res) {
		res.add(c)
	}
	res.APIClients = st.apiClients(res.Calls)
	for _, h := range res.APIClients {
		st.handed[h.Func] = true
	}
	st.exportFacts()
	st.exportConnFacts()
	st.exportVarFacts()
	res.Configs = st.loadedConfigs()
	markCallersBound(pass, res.Calls)

	st.sends(res, funcs)
	for _, c := range res.Calls {
		res.reach.remote[c.Instr] = true
	}
	res.reach.compute(funcs)

	sort.SliceStable(res.Calls, func(i, j int) bool { return res.Calls[i].Pos() < res.Calls[j].Pos() })
	sort.SliceStable(res.sends, func(i, j int) bool { return res.sends[i].Instr.Pos() < res.sends[j].Instr.Pos() })
	if reportCalls {
		for _, c := range res.Calls {
			pass.Reportf(c.Pos(), "%s", c.summary(pass.Fset))
		}
	}
	return res, nil
}

// hookDefault returns the method, and its receiver, that a call of a function-valued hook runs
// by default (f := c.do; if f == nil { f = c.HTTPClient.Do }; f(req)) when the package's
// production code never sets the hook (a field or package variable only tests fill); nil
// otherwise.
func (st *state) hookDefault(c *ssa.CallCommon) (*types.Func, ssa.Value) {
	mc, hook := flow.HookDefault(c)
	if mc == nil {
		return nil, nil
	}
	ld, ok := hook.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, nil
	}
	switch a := ld.X.(type) {
	case *ssa.FieldAddr:
		fv := flow.FieldVar(a)
		if fv == nil || fv.Pkg() != st.pass.Pkg || userField(fv) || len(st.prodStores(fv)) > 0 {
			return nil, nil
		}
	case *ssa.Global:
		if a.Pkg != st.pkg || a.Object().Exported() || len(st.prodGlobals(a)) > 0 {
			return nil, nil
		}
	default:
		return nil, nil
	}
	return flow.Bound(mc)
}

// classify returns the remote call that call makes, or nil.
func (st *state) classify(call ssa.CallInstruction) *Call {
	common := call.Common()
	fn := flow.Callee(common)
	var hookRecv ssa.Value
	if fn == nil {
		fn, hookRecv = st.hookDefault(common)
	}
	if fn == nil {
		if mc := flow.DecoratedBound(common); mc != nil {
			fn, hookRecv = flow.Bound(mc) // handler := c.HTTPClient.Do, wrapped by middlewares
		}
	}
	if fn == nil {
		return nil
	}
	id := flow.ID(fn)
	if _, known := rules[id]; !known && common.IsInvoke() {
		switch {
		case doer(fn):
			id = flow.FuncID{Pkg: knowledge.HTTPPath, Recv: "Client", Name: "Do"} // the *http.Client it holds
		case clientMethod(fn):
			id = flow.FuncID{Pkg: knowledge.HTTPPath, Recv: "Client", Name: fn.Name()}
		}
	}
	site := flow.NewSite(common, fn)
	if hookRecv != nil {
		site = flow.Site{Recv: hookRecv, Args: common.Args}
	}
	s := &site
	w := st.walker(call.Parent())
	if r, ok := rules[id]; ok {
		v, leaves := r.eval(w, s)
		if !leaves {
			return nil
		}
		if r.kind == SQL && st.embeddedSQL(call.Pos()) {
			return nil // an embedded database: nothing leaves the process
		}
		if r.kind == Dial && v.k != vBounded && transportHook(call.Parent()) {
			// The dial runs for an HTTP request, in the transport's own goroutine: the
			// request's deadline (or its client's Timeout) decides how long a caller waits.
			v = bounded(hookTimeout)
		}
		if r.kind == SQL && v.k != vBounded && sessionBounded(call) {
			v = bounded(sessionTimeout)
		}
		c := &Call{Instr: call, Func: fn, Kind: r.kind, Name: r.name, Method: r.method, Timeout: v.timeout()}
		c.Session = r.kind == Dial && connReadInLoop(call)
		if r.kind == HTTP {
			c.Streams, c.AtOnce = st.streamed(call), st.sentAtOnce(call.Parent(), *s, id)
			c.Streams = c.Streams || id.Pkg == knowledge.RestyClient.Pkg && restyUpload(s.Recv)
			c.Timeout = c.Timeout.byTransport(c)
		}
		switch {
		case r.kind == HTTP && c.Method == "" && id.Pkg == knowledge.RestyClient.Pkg:
			c.Method = strings.ToUpper(w.str(s.Arg(0), nil, 0)) // Execute(method, url)
		case r.kind == HTTP && c.Method == "":
			c.Method = st.walker(call.Parent()).method(s.Arg(0))
		}
		if i, ok := knowledge.AddrArgs[id]; ok {
			w := st.walker(call.Parent())
			if i == knowledge.FromRequest {
				c.Loopback = w.loopbackRequest(s.Arg(0))
			} else {
				c.Loopback = w.loopback(s.Arg(i), nil, 0)
			}
		}
		c.Daemon = knowledge.LocalDaemon(st.pass.Pkg.Path())
		if o := c.Timeout.Client; o != nil && o.Unix || c.Daemon {
			c.Loopback = true // a client whose transport dials a Unix socket, or the Docker daemon's: a local process
		}
		st.setContract(c, id.Name)
		return c
	}
	if stream, ok := grpcCall(fn); ok {
		name := shortPkg(id.Pkg) + "." + id.Name
		if id.Recv != "" {
			name = id.Recv + "." + id.Name
		}
		c := &Call{Instr: call, Func: fn, Kind: GRPC, Name: name, Stream: stream, Timeout: w.ctx(s.Arg(0), nil).timeout()}
		if !stream {
			conn := st.connOf(s.Recv)
			if by := conn.deadline(); by != "" && c.Timeout.Status != Bounded {
				c.Timeout = Timeout{Status: Bounded, By: by, Param: -1} // an interceptor of the connection bounds each call
			}
			c.Retrier = conn.retrier()
		}
		c.Loopback = st.pluginConn(s.Recv)
		st.setContract(c, id.Name)
		return c
	}
	if stream, ok := connectCall(fn); ok {
		// The RPC is an HTTP request sent through the client the Connect client was built
		// with: its Timeout bounds it, or the context. A client the model cannot see (handed
		// in by a caller) may have one.
		v := w.ctx(s.Arg(0), nil)
		if hcs := w.handedClients(s.Recv); len(hcs) > 0 {
			cv := none
			for _, hc := range hcs {
				cv = join(cv, w.obj(hc, nil, knowledge.HTTPClient))
			}
			v = either(cv, v)
		} else if v.k == vUnbounded {
			v = unknown
		}
		c := &Call{Instr: call, Func: fn, Kind: GRPC, Name: id.Recv + "." + id.Name, Stream: stream, Timeout: v.timeout()}
		st.setContract(c, id.Name)
		return c
	}
	if c := st.contextFreeSDKCall(call, s, fn); c != nil {
		return c
	}
	if b := knowledge.SDKBuilderSend(id); b != nil {
		if ctx := builderContext(s, b); ctx != nil {
			c := &Call{Instr: call, Func: fn, Kind: SDK, Name: fn.Pkg().Name() + "." + id.Recv + "." + id.Name, Timeout: w.ctx(ctx, nil).timeout()}
			if fn.Pkg() == st.pass.Pkg && !(freshContext(c.Timeout) && flow.ContextInScope(call.Parent()) != nil) {
				return nil // the SDK's own implementation, as for its clients' methods below
			}
			st.setContract(c, id.Name)
			return c
		}
	}
	if common.IsInvoke() && sdkClientOf(fn) == nil {
		if f := st.sdkMirror(common, fn); f != nil && sdkClientOf(f) != nil {
			fn, id = f, flow.ID(f) // the package's seam for the SDK's client: the client's call
		}
	}
	if desc := sdkClientOf(fn); desc != nil {
		name := fn.Pkg().Name() + "." + id.Recv + "." + id.Name
		c := &Call{Instr: call, Func: fn, Kind: SDK, Name: name, Timeout: w.ctx(s.Arg(0), nil).timeout(), Streams: knowledge.OpensStream(fn)}
		if c.Timeout.Status == Unbounded && s.Recv != nil && !desc.NoClient {
			o, given := st.sdkOrigin(s.Recv, fn)
			if given {
				// The client sends through the HTTP client its configuration was given: the
				// team's choice, which the model does not follow.
				c.Timeout = Timeout{Status: Unknown, Param: -1}
			}
			c.Timeout.Client = o
		}
		if c.Timeout.Status != Bounded && s.Recv != nil && fn.Pkg() != st.pass.Pkg && slices.Contains(desc.Headed, id.Name) {
			if _, given := st.sdkOrigin(s.Recv, fn); !given {
				// No body either way: the default transport's wait for the answer's headers
				// bounds the whole call (not a client built with a transport of the team's;
				// in the SDK's own package, its users' transport is not known).
				c.Timeout = Timeout{Status: Bounded, By: desc.HeadedBy, Param: -1}
			}
		}
		// In the SDK's own package its client's methods are its implementation, judged by the
		// requests they send (minio-go's Core.ListObjects, which takes no context, calling
		// c.listObjectsQuery(context.Background(), ...)); unless the caller was handed a
		// context and sends with a new one (ComposeObject(ctx, ...) calling
		// c.StatObject(context.Background(), ...)): its caller's deadline is dropped.
		if fn.Pkg() == st.pass.Pkg && !(freshContext(c.Timeout) && flow.ContextInScope(call.Parent()) != nil) {
			return nil
		}
		st.setContract(c, id.Name)
		return c
	}
	return nil
}

// doer reports whether fn is the method of an interface that sends an HTTP request as
// http.Client.Do does: its signature is (*http.Request) (*http.Response, error), whatever its
// name (a package's HTTPClient interface, through which its requests go to the *http.Client it
// was given or made).
func doer(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	return typeis.Named(sig.Params().At(0).Type(), knowledge.HTTPPath, "Request") && typeis.Named(sig.Results().At(0).Type(), knowledge.HTTPPath, "Response") &&
		typeis.ErrorLike(sig.Results().At(1).Type())
}

// clientMethod reports whether fn, a method of an interface, is one of *http.Client's Get,
// Head, Post or PostForm by name and signature: a value of the interface (a key fetcher's
// HTTPClient with Get(url)) may be the *http.Client the package holds, followed to where it
// is built.
func clientMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Results().Len() != 2 {
		return false
	}
	resp, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Pointer)
	if !ok || !typeis.Named(resp, knowledge.HTTPPath, "Response") {
		return false
	}
	named, ok := types.Unalias(resp.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	client, ok := named.Obj().Pkg().Scope().Lookup("Client").(*types.TypeName)
	if !ok {
		return false
	}
	switch fn.Name() {
	case "Get", "Head", "Post", "PostForm":
	default:
		return false
	}
	m, _, _ := types.LookupFieldOrMethod(types.NewPointer(client.Type()), true, client.Pkg(), fn.Name())
	cm, ok := m.(*types.Func)
	if !ok {
		return false
	}
	want := cm.Type().(*types.Signature)
	return types.Identical(types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic()),
		types.NewSignatureType(nil, nil, nil, want.Params(), want.Results(), want.Variadic()))
}

// markCallersBound sets Timeout.CallersBound on the calls made in an unexported function (or
// a literal inside one) whose every call in the package's production code (through the
// paramFact summaries: the calls with Via set) is bounded; a test that calls it with a
// context of its own is not a caller users run.
func markCallersBound(pass *analysis.Pass, calls []*Call) {
	bound := make(map[*ssa.Function]bool)
	for _, call := range calls {
		if call.Via == nil || testcode.At(pass, call.Pos()) {
			continue
		}
		callee := call.Instr.Common().StaticCallee()
		if callee == nil || callee.Object() == nil || callee.Object().Exported() {
			continue
		}
		ok, seen := bound[callee]
		bound[callee] = (ok || !seen) && call.Timeout.Status == Bounded
	}
	for _, call := range calls {
		fn := call.Instr.Parent()
		fn = flow.Root(fn)
		call.Timeout.CallersBound = bound[fn]
	}
}

// OtherModule reports whether package path pkg lies outside module, the module of the
// package analysed (pass.Module; a module with no path, as in GOPATH mode, holds every
// package).
func OtherModule(module *analysis.Module, pkg string) bool {
	if module == nil || module.Path == "" {
		return false
	}
	return pkg != module.Path && !strings.HasPrefix(pkg, module.Path+"/")
}

// freshContext reports whether nothing bounds a call whose context is a new, empty one.
func freshContext(t Timeout) bool {
	return t.Status == Unbounded && (t.Context.Kind == Background || t.Context.Kind == TODO)
}

// importsRemote reports whether pkg imports, directly or not, a package whose calls leave the
// process.
func importsRemote(pkg *types.Package) bool {
	seen := make(map[*types.Package]bool)
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, imp := range p.Imports() {
			if slices.Contains(remotePkgs, imp.Path()) || visit(imp) {
				return true
			}
		}
		return false
	}
	return visit(pkg)
}
