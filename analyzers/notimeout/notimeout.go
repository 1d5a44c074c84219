package notimeout

import (
	"cmp"
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/guard"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/remote"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "notimeout",
	Doc:      docs.MustExtract(doc, "notimeout"),
	URL:      docs.URL("notimeout"),
	Requires: []*analysis.Analyzer{remote.Analyzer, inspect.Analyzer},
	Run:      guard.Run("notimeout", run),
}

// Default is the timeout the suggested fix gives a client (-notimeout.default).
var Default = Duration(30 * time.Second)

func init() {
	Analyzer.Flags.Var(&Default, "default", "the timeout the suggested fix gives an http.Client (a Go duration, such as 30s or 500ms)")
}

// Duration is a flag.Value holding a positive time.Duration.
type Duration time.Duration

func (d *Duration) String() string { return time.Duration(*d).String() }

func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v <= 0 {
		return fmt.Errorf("the default timeout must be positive, not %s", s)
	}
	*d = Duration(v)
	return nil
}

type checker struct {
	pass  *analysis.Pass
	rep   *report.Reporter
	insp  *inspector.Inspector
	calls *syntax.Calls
	lits  map[token.Pos]inspector.Cursor // *ast.CompositeLit by Lbrace
	// streamClients are the clients (by origin) through which a response is read as a
	// stream, with the first such call: a Timeout on them would cut it.
	streamClients map[token.Pos]token.Pos
	streamCalls   map[token.Pos]*remote.Call
	// owned names the default clients without a timeout that the package makes, as the
	// facts of the functions sending through them do (Passed.Owned).
	owned map[string]bool
}

// A group is the calls sending requests through one client without a timeout that the
// package builds: reported once, at the client. Calls whose context is their caller's are in
// the group when the client is a library's default (remote.Timeout.Owned); byDefault says
// that all of them are.
type group struct {
	origin    *remote.Origin
	calls     []*remote.Call
	byDefault bool
	handedOut bool // an SDK configuration that exported functions return
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[remote.Analyzer].(*remote.Result)
	if len(res.Calls) == 0 && len(res.Configs) == 0 && len(res.APIClients) == 0 || testcode.Package(pass) {
		return nil, nil
	}
	c := &checker{
		pass:  pass,
		rep:   report.New(pass, "notimeout"),
		insp:  pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		calls: syntax.NewCalls(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)),

		streamClients: make(map[token.Pos]token.Pos),
		streamCalls:   make(map[token.Pos]*remote.Call),
	}
	var groups []*group
	byOrigin := make(map[token.Pos]*group)
	// A call that clients made in two places reach without a timeout (one send helper given
	// two clients) is in each client's group: each is a line to change. The copies count
	// only there, never as a finding at the call.
	calls, copies := withOthers(res.Calls)
	// A library's default client is reported where it is made, with every call through it.
	defaults := make(map[token.Pos]bool)
	c.owned = make(map[string]bool)
	made := c.shared(calls)
	for _, call := range calls {
		if !call.Timeout.Owned(pass.Pkg) {
			continue
		}
		c.owned[call.Timeout.Client.OwnedAs(pass.Fset)] = true
		if call.Timeout.Client.Transport == "" {
			defaults[call.Timeout.Client.Pos] = true
		}
	}
	byDefault := make(map[token.Pos][]*remote.Call) // calls through http.DefaultClient, by where it is named
	var defaultOrder []token.Pos
	sqlCalls := make(map[*ssa.Function][]*remote.Call)
	var sqlFuncs []*ssa.Function
	// Calls given context.Background/TODO, by function, or by the package variable that
	// holds the context they share (a token.Pos: var Ctx = context.TODO()).
	freshCalls := make(map[any][]*remote.Call)
	var freshFuncs []any
	byMaker := make(map[token.Pos][]*remote.Call) // calls sending a context-free request a helper makes, by where
	var makerOrder []token.Pos
	var contextless []*remote.Call                    // requests made without a context by functions that have none
	byAPI := make(map[*types.TypeName][]*remote.Call) // calls of another package's context-free API, by its type
	var apiOrder []*types.TypeName
	for _, call := range calls {
		owned := call.Timeout.Owned(pass.Pkg)
		if owned && call.Timeout.Client.Transport != "" {
			// A default client whose transport has a ResponseHeaderTimeout, sending a request
			// with its caller's context: a stalled server cannot hold it before the answer.
			continue
		}
		if call.Timeout.Status != remote.Unbounded && !owned || call.Stream || byContract(call) || call.Loopback || call.Daemon || testcode.At(c.pass, call.Pos()) {
			continue
		}
		if o := call.Timeout.Client; call.Streams && o != nil && o.Pos.IsValid() && c.streamCalls[o.Pos] == nil {
			c.streamClients[o.Pos], c.streamCalls[o.Pos] = call.Pos(), call
		}
		if call.Streams {
			// A response read as a stream lives as long as the server sends: a client Timeout
			// would cut it. Only a request that nothing can end is reported, at the call.
			if call.Timeout.Status == remote.Unbounded && (endless(call.Timeout.Context.Kind) || call.Via == nil && call.Kind == remote.SDK && !cancellable(call)) {
				c.reportCall(call)
			}
			continue
		}
		if o := call.Timeout.Client; (call.Kind == remote.HTTP || owned || sdkClient(call)) && (call.Via == nil || call.Via.Client != "") && o != nil && o.Transport == "" && (owned || grouped(o, made) || defaults[o.Pos] || sdkClient(call)) && !testcode.At(c.pass, o.Pos) {
			key := o.Pos
			if cfg := o.Config; cfg != nil && sdkClient(call) {
				if !cfg.Pos.IsValid() {
					continue // the package that loads the configuration reports it
				}
				key = cfg.Pos
			}
			g := byOrigin[key]
			if g == nil {
				g = &group{origin: o, byDefault: true}
				byOrigin[key] = g
				groups = append(groups, g)
			}
			g.calls = append(g.calls, call)
			g.byDefault = g.byDefault && owned
			continue
		}
		if copies[call] {
			continue
		}
		if c.coveredByClient(call, calls) {
			continue
		}
		if tn := unboundableAPI(call, pass.Pkg); tn != nil {
			// Another package's API whose methods take no context and send through the
			// value's own client without a Timeout (goamz's Bucket.List, Del, PutReader):
			// the choice of that API, or of the client it was built with, is one cause.
			if byAPI[tn] == nil {
				apiOrder = append(apiOrder, tn)
			}
			byAPI[tn] = append(byAPI[tn], call)
			continue
		}
		if call.Kind == remote.SQL && call.Timeout.Context.Kind == remote.NoContext && (call.Via == nil || call.Via.Instead != "") {
			// Database calls without a context in one function: one cause, one finding. A
			// library's context-free form (sqlx's Stmt.Get, which has GetContext) is the same
			// choice as database/sql's.
			fn := call.Instr.Parent()
			if sqlCalls[fn] == nil {
				sqlFuncs = append(sqlFuncs, fn)
			}
			sqlCalls[fn] = append(sqlCalls[fn], call)
			continue
		}
		if o := call.Timeout.Client; o != nil && o.Kind == remote.Default && !o.Fallback && o.Pos.IsValid() && call.Via != nil {
			// http.DefaultClient named in one place and handed on: one cause, one finding.
			if byDefault[o.Pos] == nil {
				defaultOrder = append(defaultOrder, o.Pos)
			}
			byDefault[o.Pos] = append(byDefault[o.Pos], call)
			continue
		}
		if k := call.Timeout.Context.Kind; call.Timeout.Status == remote.Unbounded && call.Timeout.Client == nil && (k == remote.Background || k == remote.TODO) {
			// Calls of one function each given context.TODO(): one cause (the function has
			// no context to give them), one finding.
			var key any = call.Instr.Parent()
			if src := call.Timeout.Context.Pos; src.IsValid() && !flow.Within(call.Instr.Parent(), src) && call.Via == nil {
				key = src // one context shared by the package's functions: one cause
			}
			if freshCalls[key] == nil {
				freshFuncs = append(freshFuncs, key)
			}
			freshCalls[key] = append(freshCalls[key], call)
			continue
		}
		if src := call.Timeout.Context; call.Via != nil && call.Via.Request && src.Kind.Contextless() && src.Pos.IsValid() &&
			!flow.Within(call.Instr.Parent(), src.Pos) && contextParam(call.Instr.Parent()) == "" {
			// Requests a helper makes without a context, sent for callers that have none to
			// give: the package's design, one cause at the helper, not one per caller.
			if byMaker[src.Pos] == nil {
				makerOrder = append(makerOrder, src.Pos)
			}
			byMaker[src.Pos] = append(byMaker[src.Pos], call)
			continue
		}
		// (Methods sending through a client that is http.DefaultClient when the user gives
		// none, with requests that have no context, follow the design too: vk.Client.Post(url,
		// ...) in each upload method.)
		byDefault := flow.RecvNamed(call.Instr.Parent()) != nil && call.Timeout.Client != nil && call.Timeout.Client.Kind == remote.Default && call.Timeout.Client.Fallback
		if src := call.Timeout.Context; call.Timeout.Status == remote.Unbounded && (call.Timeout.Client == nil || byDefault) &&
			src.Kind.Contextless() && (src.Pos.IsValid() && flow.Within(call.Instr.Parent(), src.Pos) || byDefault && src.Kind == remote.NoContext && call.Via == nil) &&
			contextParam(call.Instr.Parent()) == "" && requestSent(call) {
			// Requests made without a context in a function that has none at hand: the
			// package's API has none to give (Head(url), Get(url)), one cause for the package.
			contextless = append(contextless, call)
			continue
		}
		c.reportCall(call)
	}
	if funcsOf(contextless) > 1 {
		c.reportContextless(contextless)
	} else {
		for _, call := range contextless {
			c.reportCall(call)
		}
	}
	for _, pos := range makerOrder {
		c.reportMaker(byMaker[pos])
	}
	for _, tn := range apiOrder {
		c.reportAPI(tn, byAPI[tn])
	}
	// Methods of one type with no context at hand that make their own context.Background()
	// follow the type's design (a data layer written without contexts): their calls, of one
	// kind, are one finding for the type. A method that has a context and makes another
	// slipped; plain functions are each their own finding.
	type design struct {
		recv *types.TypeName // the receiver's type (a generic one's origin)
		kind remote.Kind
	}
	recvOf := func(key any) *types.TypeName {
		fn, ok := key.(*ssa.Function)
		if !ok || contextParam(fn) != "" {
			return nil
		}
		return flow.RecvNamed(fn)
	}
	byDesign := make(map[design][]*remote.Call)
	designFuncs := make(map[design]map[any]bool)
	var designs []design
	for _, key := range freshFuncs {
		tn := recvOf(key)
		if tn == nil {
			continue
		}
		for _, call := range freshCalls[key] {
			d := design{tn, call.Kind}
			if designFuncs[d] == nil {
				designs = append(designs, d)
				designFuncs[d] = make(map[any]bool)
			}
			byDesign[d] = append(byDesign[d], call)
			designFuncs[d][key] = true
		}
	}
	for _, key := range freshFuncs {
		var own []*remote.Call
		for _, call := range freshCalls[key] {
			if tn := recvOf(key); tn == nil || len(designFuncs[design{tn, call.Kind}]) < 2 {
				own = append(own, call)
			}
		}
		if len(own) > 0 {
			c.reportFresh(own, false)
		}
	}
	for _, d := range designs {
		if len(designFuncs[d]) > 1 {
			slices.SortFunc(byDesign[d], func(a, b *remote.Call) int { return cmp.Compare(a.Pos(), b.Pos()) })
			c.reportFresh(byDesign[d], true)
		}
	}
	for _, pos := range defaultOrder {
		first, also := namingCall(byDefault[pos], pos)
		c.reportCall(first, also...)
	}
	// A function with a context at hand that does not pass it slipped: its calls are one
	// finding. Functions with none at hand follow the package's design (a storage layer
	// written without contexts): their calls are one finding for the package.
	var designed []*remote.Call
	var designedFuncs int
	for _, fn := range sqlFuncs {
		if contextParam(fn) != "" {
			c.reportSQL(sqlCalls[fn], false)
			continue
		}
		designed = append(designed, sqlCalls[fn]...)
		designedFuncs++
	}
	if designedFuncs > 1 {
		slices.SortFunc(designed, func(a, b *remote.Call) int { return cmp.Compare(a.Pos(), b.Pos()) })
		c.reportSQL(designed, true)
	} else if len(designed) > 0 {
		c.reportSQL(designed, false)
	}
	// A configuration handed out by an exported function: the clients made from it elsewhere
	// are its finding, with those made here.
	for _, cfg := range res.Configs {
		if testcode.At(c.pass, cfg.Pos) {
			continue
		}
		if g := byOrigin[cfg.Pos]; g != nil {
			g.handedOut = true
			continue
		}
		groups = append(groups, &group{origin: &remote.Origin{Kind: remote.Constructor, Config: cfg}, byDefault: true, handedOut: true})
	}
	c.reportAPIClients(res.APIClients)
	for _, g := range groups {
		if g.origin.Config != nil && g.origin.Config.Pos.IsValid() {
			c.reportConfig(g)
			continue
		}
		c.reportClient(g)
	}
	return nil, nil
}

// requestSent reports whether call sends an HTTP request (directly, or through a function
// handed the request).
func requestSent(call *remote.Call) bool {
	return call.Kind == remote.HTTP && (call.Via == nil || call.Via.Request)
}

// funcsOf counts the functions that make calls.
func funcsOf(calls []*remote.Call) int {
	fns := make(map[*ssa.Function]bool)
	for _, call := range calls {
		fns[call.Instr.Parent()] = true
	}
	return len(fns)
}

// byContract reports whether call has nothing to bound it but a context its function cannot
// have, by contract (see remote.Contract). A dial is not such a call: a timeout bounds it with
// no context (net.DialTimeout, a net.Dialer's Timeout), whatever the interface it implements;
// nor is a call given a context.Background() or TODO of the function's making, in a function
// that gives its other calls deadlines (context.WithTimeout): it bounds its calls itself, and
// left this one out. (One that bounds none may wait on purpose: a Lock that blocks until the
// lock is free.)
func byContract(call *remote.Call) bool {
	switch {
	case call.Contract.Kind == 0:
		return false
	case call.Contract.Kind == remote.ContextFree:
		return true
	case call.Kind == remote.Dial:
		return false
	}
	fn, k := call.Instr.Parent(), call.Timeout.Context.Kind
	if call.Via != nil || k != remote.Background && k != remote.TODO || !flow.Within(fn, call.Timeout.Context.Pos) {
		return true
	}
	return !makesDeadlines(fn, 1)
}

// makesDeadlines reports whether fn, or a function of its package it calls (depth levels
// down), makes a context with a deadline (remote.MakesDeadline: context.WithTimeout and the
// others).
func makesDeadlines(fn *ssa.Function, depth int) bool {
	for c := range flow.Calls(fn) {
		callee := c.Common().StaticCallee()
		if remote.MakesDeadline(flow.ID(flow.Callee(c.Common()))) {
			return true
		}
		if depth > 0 && callee != nil && callee != fn && callee.Pkg == fn.Pkg && makesDeadlines(callee, depth-1) {
			return true
		}
	}
	return false
}

// endless reports whether a request's context, of kind k, can never end: it has none at all.
// (A stream sent with context.Background() may still be cancelled through a WithCancel the
// model looks through: not claimed.)
func endless(k remote.SourceKind) bool { return k.Contextless() }

// cancellable reports whether the context an SDK call opening a stream is given (its first
// argument) can be cancelled: it comes through context.WithCancel, WithCancelCause or
// signal.NotifyContext (a transfer that its owner cancels), or from a parameter (the caller's).
func cancellable(call *remote.Call) bool {
	args := call.Instr.Common().Args
	if !call.Instr.Common().IsInvoke() {
		args = args[1:] // the receiver
	}
	if len(args) == 0 {
		return false
	}
	found := false
	flow.Backward(args[0], 32, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Parameter, *ssa.FreeVar:
			found = true
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			if id.Pkg == "context" && (id.Name == "WithCancel" || id.Name == "WithCancelCause") || id.Pkg == "os/signal" && id.Name == "NotifyContext" {
				found = true
			}
		}
		return !found
	})
	return found
}

// namingCall returns, of calls that send through http.DefaultClient named at pos, the one in
// the function that names it (the line to change), or the first; and the others of that
// function (it names the client again for them), to be related.
func namingCall(calls []*remote.Call, pos token.Pos) (*remote.Call, []*remote.Call) {
	first := calls[0]
	for _, call := range calls {
		if flow.Within(call.Instr.Parent(), pos) {
			first = call
			break
		}
	}
	var also []*remote.Call
	for _, call := range calls {
		if call != first && call.Instr.Parent() == first.Instr.Parent() {
			also = append(also, call)
		}
	}
	return first, also
}

// withOthers returns calls followed, for each call that other clients without a timeout reach
// too (Timeout.Others), by a copy of it per other client, and the set of the copies.
func withOthers(calls []*remote.Call) ([]*remote.Call, map[*remote.Call]bool) {
	out := slices.Clone(calls)
	copies := make(map[*remote.Call]bool)
	for _, call := range calls {
		for _, o := range call.Timeout.Others {
			c := *call
			c.Timeout.Client, c.Timeout.Others = o, nil
			out = append(out, &c)
			copies[&c] = true
		}
	}
	return out, copies
}

// coveredByClient reports whether call passes a context without a deadline to a function that
// sends through a library's default client without a timeout (Passed.Owned), which is
// reported where the library makes it, and the caller had no context of its own to pass (it
// passes none, or context.Background or TODO): the client is the cause. A caller that drops
// the context it was given is still reported.
func (c *checker) coveredByClient(call *remote.Call, calls []*remote.Call) bool {
	if call.Via.Unboundable() && call.Func != nil && call.Func.Pkg() != nil && !remote.OtherModule(c.pass.Module, call.Func.Pkg().Path()) {
		return true // a function of this module with no context to take: its client, reported, is the cause
	}
	if fn := call.Instr.Parent(); call.Via == nil || call.Via.Owned == "" || contextParam(fn) != "" && !emptyRequestParam(fn, calls) {
		return false
	}
	if call.Via.Streams && call.Func != nil && call.Func.Pkg() == c.pass.Pkg {
		return false // in the client's package: a client whose sends stream gets no Timeout finding to cover it
	}
	if call.Func != nil && call.Func.Pkg() != nil && remote.OtherModule(c.pass.Module, call.Func.Pkg().Path()) {
		return false // the library's finding is in another module, which a run on this one does not show
	}
	switch k := call.Timeout.Context.Kind; {
	case k == remote.Background, k == remote.TODO:
		return true
	case k.Contextless():
		// A request made without one, in a function that has none to give, has what
		// context.Background would give it: through another package's client, that
		// client's Timeout is the line to change. (Through the package's own, requests
		// made without a context are its API's choice, one finding for the package.)
		return !c.owned[call.Via.Owned]
	}
	return false
}

// emptyRequestParam reports whether the request fn is given carries no context to drop: fn
// has no context parameter, no other package can call it (it is unexported), and every call
// of it in the package hands it a request made without one (follow(req) called with
// http.NewRequest's, and again with the next page's).
func emptyRequestParam(fn *ssa.Function, calls []*remote.Call) bool {
	if flow.ContextInScope(fn) != nil || flow.RequestParam(fn) == nil || fn.Object() == nil || fn.Object().Exported() {
		return false
	}
	given := false
	for _, other := range calls {
		if other.Instr.Common().StaticCallee() != fn {
			continue
		}
		if !other.Timeout.Context.Kind.Contextless() {
			return false
		}
		given = true
	}
	return given
}

// sdkClient reports whether call goes through an SDK client made in this package (its
// origin known) with a context that has no deadline, from a function that has no context of
// its own to pass: the client's missing timeout is the cause, reported once where it is made.
func sdkClient(call *remote.Call) bool {
	o := call.Timeout.Client
	return call.Kind == remote.SDK && call.Timeout.Status == remote.Unbounded && o != nil &&
		o.Kind == remote.Constructor && contextParam(call.Instr.Parent()) == ""
}

// grouped reports whether calls through a client from o are reported at o: a client the
// package builds, whose declaration is the line to change. (Not one whose transport has a
// ResponseHeaderTimeout, which a streaming client wants instead of a Timeout: the request
// without a deadline is the line to change, reported at the call.)
func grouped(o *remote.Origin, made map[token.Pos]int) bool {
	switch o.Kind {
	case remote.Local, remote.ZeroVar, remote.ZeroField:
		return o.Pos.IsValid()
	case remote.Constructor:
		// A library's constructor called here (resty.New(), cleanhttp.DefaultClient()) that
		// several calls without a deadline go through: the constructor's call is the one
		// line to change. (Through one call, that call's finding names it.)
		return o.Pos.IsValid() && o.Config == nil && made[o.Pos] > 1
	}
	return false
}

// shared counts, by where a library's constructor made their client (where a finding is not
// suppressed: a generated file, an ignore comment), the calls outside tests that nothing
// bounds.
func (c *checker) shared(calls []*remote.Call) map[token.Pos]int {
	n := make(map[token.Pos]int)
	for _, call := range calls {
		if o := call.Timeout.Client; o != nil && o.Kind == remote.Constructor && call.Timeout.Status == remote.Unbounded && !call.Stream && !call.Streams && !call.Loopback &&
			!testcode.At(c.pass, call.Pos()) && !c.rep.Suppressed(o.Pos) {
			n[o.Pos]++
		}
	}
	return n
}

// unboundableAPI returns the receiver's type of call when it is a method of another package's
// type that takes no context and sends through the value's own client with no Timeout
// (Passed.Unboundable, nothing to use instead); nil otherwise.
func unboundableAPI(call *remote.Call, pkg *types.Package) *types.TypeName {
	if call.Via == nil || !call.Via.Unboundable() || call.Timeout.Context.Kind != remote.NoContext || call.Via.Instead != "" ||
		call.Func == nil || call.Func.Pkg() == pkg {
		return nil
	}
	recv := call.Func.Type().(*types.Signature).Recv()
	if recv == nil {
		return nil
	}
	return flow.BaseNamed(recv.Type())
}
