package unkeyedretry

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/config"
	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/guard"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/keys"
	"github.com/idemlint/idemlint/analyzers/remote"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:      "unkeyedretry",
	Doc:       docs.MustExtract(doc, "unkeyedretry"),
	URL:       docs.URL("unkeyedretry"),
	Requires:  []*analysis.Analyzer{retryscope.Analyzer, keys.Analyzer, remote.Analyzer, ssapkg.Analyzer, inspect.Analyzer},
	FactTypes: []analysis.Fact{new(sendsFact), new(resendsFact)},
	Run:       guard.Run("unkeyedretry", run),
}

var (
	grpcMethods = config.List{Check: func(s string) error { _, err := parseMethod(s); return err }}
	markedFuncs = config.List{Check: func(s string) error { _, err := flow.ParseFunc(s); return err }}
	readsList   = config.List{Check: checkRead}
)

// checkRead accepts a path pattern ("/flags", "/v1/*/evaluate", path.Match syntax) or a
// function (pkg/path.Func, pkg/path.Type.Method).
func checkRead(s string) error {
	if strings.HasPrefix(s, "/") {
		_, err := path.Match(s, "/")
		return err
	}
	_, err := flow.ParseFunc(s)
	return err
}

func init() {
	Analyzer.Flags.Var(&grpcMethods, "grpc", "comma-separated non-idempotent gRPC methods, as pkg.Service/Method (pkg optional, Method * for all)")
	Analyzer.Flags.Var(&markedFuncs, "funcs", "comma-separated non-idempotent functions, as pkg/path.Func or pkg/path.Type.Method")
	Analyzer.Flags.Var(&readsList, "reads", "comma-separated POST endpoints that only read (a query, an evaluation), as URL path patterns (/flags, /v1/*/evaluate) or the functions that send them (pkg/path.Func)")
}

// sendsFact marks a function that sends a non-idempotent request without an idempotency key,
// with nothing retrying it inside: a retry around a call of it repeats the request.
type sendsFact struct {
	What string // "POST /v1/charges", "a POST request"
}

func (*sendsFact) AFact()           {}
func (f *sendsFact) String() string { return "sends " + f.What + " without an idempotency key" }

// An op is a non-idempotent operation: a request sent by a call, or a call of a function that
// sends one.
type op struct {
	call ssa.CallInstruction
	what string       // "POST /v1/charges", "a POST request", "gRPC payments.Payments/Charge"
	send *remote.Send // the HTTP request, when call sends one itself
	via  string       // the function that sends it, for a call of one
	at   token.Pos    // where a function of this package sends it, for a call of one
	// inners are the unkeyed operations of the function of this package that call calls,
	// for a call of one that sends them.
	inners []*op
}

type checker struct {
	pass    *analysis.Pass
	rep     *report.Reporter
	scopes  *retryscope.Result
	keys    *keys.Result
	remote  *remote.Result
	calls   *syntax.Calls
	grpc    []method
	funcs   map[flow.FuncID]bool
	clients map[ssa.CallInstruction]*retryscope.Scope // Client scopes by their call
	// Requests that helpers of the package hand to one retrying client, by that client's
	// scope: one cause, reported once at the client (helpers).
	helped      map[*retryscope.Scope][]*op
	helpedOrder []*retryscope.Scope
	sends       map[*ssa.Function][]*op // functions that send unkeyed ops outside any scope, in order
	// Requests handed to another package's function that resends them (resendsFact), by
	// that function: one finding each.
	resent      map[*types.Func][]*op
	resentOrder []*types.Func
	// The finding of each scope that resends unkeyed requests: one per scope, the others
	// beside it (one cause: the scope's retry of what it sends).
	byScope    map[*retryscope.Scope]*analysis.Diagnostic
	scopeOrder []*retryscope.Scope
	// Requests sent through retrying clients made at one place of the package (one
	// constructor, many calls of the client): one cause, reported once where it is made.
	made      map[token.Pos][]madeOp
	madeOrder []token.Pos
	// Requests that the package's calls of one retry helper of its own hand it in their
	// callbacks: one cause, the helper's retry of every method, reported once at its loop.
	byHelper    map[*types.Func][]madeOp
	helperOrder []*types.Func
	keyer       *keys.Keyer
	impls       *flow.Implementers     // the package's implementations of its interfaces
	reads       map[*ssa.Function]bool // functions that send a request that changes nothing
	// -unkeyedretry.reads: POST endpoints the team marked as reads, by path or function.
	readPaths []string
	readFuncs map[flow.FuncID]bool
}

func run(pass *analysis.Pass) (any, error) {
	reporting := pass
	if testcode.Package(pass) {
		// A test-support package retries on purpose: its facts are still exported, for
		// other test code, but nothing is reported.
		quiet := *pass
		quiet.Report = func(analysis.Diagnostic) {}
		reporting = &quiet
	}
	c := &checker{
		pass:     pass,
		rep:      report.New(reporting, "unkeyedretry"),
		scopes:   pass.ResultOf[retryscope.Analyzer].(*retryscope.Result),
		keys:     pass.ResultOf[keys.Analyzer].(*keys.Result),
		remote:   pass.ResultOf[remote.Analyzer].(*remote.Result),
		calls:    syntax.NewCalls(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)),
		funcs:    make(map[flow.FuncID]bool),
		clients:  make(map[ssa.CallInstruction]*retryscope.Scope),
		helped:   make(map[*retryscope.Scope][]*op),
		sends:    make(map[*ssa.Function][]*op),
		resent:   make(map[*types.Func][]*op),
		byScope:  make(map[*retryscope.Scope]*analysis.Diagnostic),
		made:     make(map[token.Pos][]madeOp),
		byHelper: make(map[*types.Func][]madeOp),
		keyer:    pass.ResultOf[keys.Analyzer].(*keys.Result).NewKeyer(),
		impls:    flow.NewImplementers(pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).Pkg),
	}
	for _, s := range grpcMethods.Values() {
		m, err := parseMethod(s)
		if err != nil {
			return nil, err
		}
		c.grpc = append(c.grpc, m)
	}
	for _, s := range markedFuncs.Values() {
		id, err := flow.ParseFunc(s)
		if err != nil {
			return nil, err
		}
		c.funcs[id] = true
	}
	c.readPaths, c.readFuncs = nil, make(map[flow.FuncID]bool)
	for _, s := range readsList.Values() {
		if strings.HasPrefix(s, "/") {
			c.readPaths = append(c.readPaths, s)
			continue
		}
		id, err := flow.ParseFunc(s)
		if err != nil {
			return nil, err
		}
		c.readFuncs[id] = true
	}
	for _, s := range c.scopes.Scopes {
		if s.Kind == retryscope.Client && s.Site != nil && !s.Handed {
			c.clients[s.Site] = s
		}
	}
	funcs := pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).SrcFuncs
	// Requests sent here, then calls of the functions that send them, until nothing changes.
	var pending []*op
	for _, fn := range funcs {
		if c.inTest(fn) {
			continue
		}
		for call := range flow.Calls(fn) {
			if o := c.direct(call); o != nil && !c.keyer.Keyed(o.call) {
				pending = append(pending, o)
			}
			if o, by := c.resentBy(call); o != nil {
				if c.resent[by] == nil {
					c.resentOrder = append(c.resentOrder, by)
				}
				c.resent[by] = append(c.resent[by], o)
			}
		}
	}
	reported := make(map[ssa.CallInstruction]bool)
	for range 8 {
		for _, o := range pending {
			if !reported[o.call] && !c.check(o) {
				root := flow.Root(o.call.Parent())
				c.sends[root] = append(c.sends[root], o)
			}
			reported[o.call] = true
		}
		pending = pending[:0]
		for _, fn := range funcs {
			if c.inTest(fn) {
				continue
			}
			for call := range flow.Calls(fn) {
				if reported[call] {
					continue
				}
				if o := c.viaCall(call); o != nil && !c.keyer.Keyed(call) {
					pending = append(pending, o)
				}
			}
		}
		if len(pending) == 0 {
			break
		}
	}
	for _, h := range c.helperOrder {
		c.reportByHelper(h, c.byHelper[h])
	}
	for _, at := range c.madeOrder {
		c.reportMade(at, c.made[at])
	}
	for _, s := range c.scopeOrder {
		c.rep.Report(*c.byScope[s])
	}
	for _, s := range c.helpedOrder {
		c.reportHelped(s, c.helped[s])
	}
	for _, fn := range c.resentOrder {
		c.reportResent(fn, c.resent[fn])
	}
	c.exportResends()
	for fn, ops := range c.sends {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() == pass.Pkg && obj.Exported() {
			pass.ExportObjectFact(obj, &sendsFact{What: ops[0].what})
		}
	}
	return nil, nil
}

// inTest reports whether fn is written in a _test.go file: tests retry on purpose.
func (c *checker) inTest(fn *ssa.Function) bool {
	tf := c.pass.Fset.File(fn.Pos())
	return tf != nil && strings.HasSuffix(tf.Name(), "_test.go")
}

// direct returns the non-idempotent operation that call performs itself, or nil. A request
// sent only once the server refused the credentials logs in again (retryscope.OnlyAfterRefusal):
// not an operation a retry repeats to the client's harm.
func (c *checker) direct(call ssa.CallInstruction) *op {
	if retryscope.OnlyAfterRefusal(call) {
		return nil
	}
	if s := c.remote.SendOf(call); s != nil {
		if !c.changes(s, call) || c.scopes.ConflictDone(call) {
			return nil // a question, a token; a create whose 409 the program takes as done
		}
		return &op{call: call, what: sendWhat(s), send: s}
	}
	fn := flow.Callee(call.Common())
	if fn == nil {
		return nil
	}
	if c.funcs[flow.ID(fn)] {
		return &op{call: call, what: flow.Name(fn, c.pass.Pkg)}
	}
	if len(c.grpc) > 0 {
		if rc := c.remote.Of(call); rc != nil && rc.Kind == remote.GRPC {
			if name, ok := c.grpcMethod(call, fn); ok {
				return &op{call: call, what: "gRPC " + name}
			}
		}
	}
	return nil
}

// changes reports whether the request s, sent by call, can change state on the server: a POST
// or PATCH, of an API that takes keys, that neither asks a question (POST .../search, or one
// whose answer is read as a stream) nor asks for a token, nor is marked as a read.
func (c *checker) changes(s *remote.Send, call ssa.CallInstruction) bool {
	return remote.ChangesState(s.Method) && !s.Keyless && !(s.Method == "POST" && (s.Asks() || s.Grant || s.Credential || c.streamsAnswer(call) || c.markedRead(s, call)))
}

// streamsAnswer reports whether the answer to call is read as a stream (the rows of a query,
// the events of a completion): a POST answered so asks a question; a creation answers with a
// document.
func (c *checker) streamsAnswer(call ssa.CallInstruction) bool {
	rc := c.remote.Of(call)
	return rc != nil && rc.Streams
}

// sendWhat names the request s for a message: "POST /v1/charges", "a POST request".
func sendWhat(s *remote.Send) string {
	if s.Path != "" {
		return s.Method + " " + s.Path
	}
	return "a " + s.Method + " request"
}

// markedRead reports whether the team marked the POST s, sent by call, as a read
// (-unkeyedretry.reads): its path matches a pattern (a pattern without a wildcard also matches
// the end of the path), or the function that sends it is marked.
func (c *checker) markedRead(s *remote.Send, call ssa.CallInstruction) bool {
	for _, p := range c.readPaths {
		if ok, _ := path.Match(p, s.Path); ok || s.Path != "" && !strings.ContainsAny(p, "*?[") && strings.HasSuffix(s.Path, p) ||
			s.Path == "" && s.Last != "" && p == "/"+s.Last {
			return true
		}
	}
	if obj, ok := flow.Root(call.Parent()).Object().(*types.Func); ok && c.readFuncs[flow.ID(obj)] {
		return true
	}
	return false
}

// viaCall returns the operation a call performs through a function that sends an unkeyed
// request (in this package, or in another through its fact), or nil.
func (c *checker) viaCall(call ssa.CallInstruction) *op {
	if retryscope.OnlyAfterRefusal(call) || c.scopes.ConflictDone(call) {
		return nil // a new session after a refusal; a create whose 409 is taken as done (see direct)
	}
	if callee := call.Common().StaticCallee(); callee != nil {
		if ops := reachableOps(c.sends[callee], callee, call); len(ops) > 0 && callee != call.Parent() {
			return &op{call: call, what: ops[0].what, via: callee.Name(), at: ops[0].call.Pos(), inners: ops}
		}
	}
	if o := c.viaInterface(call); o != nil {
		return o
	}
	fn := flow.Callee(call.Common())
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == c.pass.Pkg || c.readFuncs[flow.ID(fn)] {
		return nil
	}
	var f sendsFact
	if c.pass.ImportObjectFact(fn, &f) {
		return &op{call: call, what: f.What, via: flow.Name(fn, c.pass.Pkg)}
	}
	return nil
}

// check reports o if a retry scope may repeat it after it reached the server, and reports
// whether any retry scope holds it.
func (c *checker) check(o *op) bool {
	enclosing := c.scopes.Enclosing(o.call)
	if cs := c.clients[o.call]; cs != nil {
		enclosing = append(enclosing, cs)
	}
	if len(enclosing) == 0 && o.send != nil && c.helpedBy(o, o.send, 0) {
		return true
	}
	if len(enclosing) == 0 {
		if fn := flow.Callee(o.call.Common()); fn != nil && fn.Pkg() == c.pass.Pkg && retryscope.ClientAPI(fn) {
			return true // a client's own API (its Post calling its retrying Do): its callers decide
		}
		return false
	}
	for _, s := range enclosing {
		if c.actsOnResource(o, s) {
			continue
		}
		if s.AsksAgain(o.call) {
			continue // sent again after it succeeded: the program repeats it as a query
		}
		if s.Kind == retryscope.Reconciler {
			// Run again after successes too: a reconciler avoids repeating a create by
			// looking at the state it observes, which the client cannot see.
			continue
		}
		if c.scopes.Resends(s, o.call) {
			if at := s.MadeAt(); at.IsValid() && sharedClient(o.call) {
				if c.made[at] == nil {
					c.madeOrder = append(c.madeOrder, at)
				}
				c.made[at] = append(c.made[at], madeOp{o, s})
				return true
			}
			if h := c.ownHelper(s); h != nil {
				if c.byHelper[h] == nil {
					c.helperOrder = append(c.helperOrder, h)
				}
				c.byHelper[h] = append(c.byHelper[h], madeOp{o, s})
				return true
			}
			c.report(o, s)
			return true
		}
	}
	return true
}

// helpedBy reports whether a helper that s calls (and the helpers it calls in turn) sends the
// request to a retrying client, or in a retry loop of its own (do(req) going round on 500s):
// every such request has the same cause, the helper's retry of non-idempotent methods. It
// records o under that scope.
func (c *checker) helpedBy(o *op, s *remote.Send, depth int) bool {
	if s == nil || s.Inner == nil || depth > 8 {
		return false
	}
	for _, in := range append([]*remote.Send{s.Inner}, s.Also...) {
		helpers := c.scopes.Enclosing(in.Instr)
		if cs := c.clients[in.Instr]; cs != nil {
			helpers = []*retryscope.Scope{cs}
		}
		for _, hs := range helpers {
			if hs.Kind.FromFramework() || hs.Kind == retryscope.Reconciler || !c.scopes.Resends(hs, in.Instr) || readsMethod(flow.Root(in.Instr.Parent())) {
				continue
			}
			if c.helped[hs] == nil {
				c.helpedOrder = append(c.helpedOrder, hs)
			}
			c.helped[hs] = append(c.helped[hs], o)
			return true
		}
	}
	for _, in := range append([]*remote.Send{s.Inner}, s.Also...) {
		if c.helpedBy(o, in, depth+1) {
			return true
		}
	}
	return false
}

// actsOnResource reports whether o is a POST to a resource it names by an identifier that
// is the same on every attempt of s (POST /orders/{id}/status): a state transition the server
// can apply once, not a create. A PATCH is reported all the same.
//
// When o is a call of a function of the package that sends unkeyed requests (itself or
// through others), each of them must be such a POST, its identifier the same on every call
// that o makes (see freshPerAttempt).
func (c *checker) actsOnResource(o *op, s *retryscope.Scope) bool {
	return c.onResource([]*op{o}, s)
}

// onResource is actsOnResource for the last op of chain, which the ones before it call.
func (c *checker) onResource(chain []*op, s *retryscope.Scope) bool {
	o := chain[len(chain)-1]
	if len(o.inners) > 0 {
		if len(chain) >= 8 {
			return false
		}
		for _, in := range o.inners {
			if !c.onResource(append(chain[:len(chain):len(chain)], in), s) {
				return false
			}
		}
		return true
	}
	if o.send == nil || o.send.Method != "POST" || len(o.send.Resource) == 0 {
		return false
	}
	return !slices.ContainsFunc(o.send.Resource, func(v ssa.Value) bool { return c.freshPerAttempt(v, chain, len(chain)-1, s) })
}

// freshPerAttempt reports whether v, a value of the function that chain[level] is sent from,
// may be new on an attempt of s: made by a generator in s itself (level 0), anywhere in a
// function the scope's call enters (made again on every call), or through a parameter of
// that function whose argument may be. A parameter of a closure there is not known.
func (c *checker) freshPerAttempt(v ssa.Value, chain []*op, level int, s *retryscope.Scope) bool {
	if level == 0 {
		return c.keys.FreshIn(v, s.Contains)
	}
	if c.keys.FreshIn(v, func(token.Pos) bool { return true }) {
		return true
	}
	call := chain[level-1].call.Common()
	callee := call.StaticCallee()
	fresh := false
	flow.Backward(v, 256, func(x ssa.Value) bool {
		if p, ok := x.(*ssa.Parameter); ok {
			i := slices.Index(p.Parent().Params, p)
			if p.Parent() != callee || i < 0 || i >= len(call.Args) {
				fresh = true
			} else {
				fresh = c.freshPerAttempt(call.Args[i], chain, level-1, s)
			}
		}
		return !fresh
	})
	return fresh
}

func (c *checker) report(o *op, s *retryscope.Scope) {
	var related []analysis.RelatedInformation
	if p := s.Pos(); p.IsValid() {
		related = append(related, analysis.RelatedInformation{Pos: p, Message: s.Kind.String()})
	}
	if o.at.IsValid() {
		at := o.at
		for _, in := range o.inners {
			if !c.onResource([]*op{o, in}, s) {
				at = in.call.Pos() // the request that can repeat, not one on a named resource
				break
			}
		}
		related = append(related, analysis.RelatedInformation{Pos: c.span(at).Pos(), Message: "sent here by " + o.via})
	}
	// The line that must change: where the request is made, when that is in view.
	at := c.span(o.call.Pos())
	if o.send != nil && o.send.Made != nil {
		made := c.span(o.send.Made.Pos())
		if made.Pos() != at.Pos() {
			related = append(related, analysis.RelatedInformation{Pos: at.Pos(), Message: "sent here"})
			at = made
		}
	}
	if first := c.byScope[s]; first != nil {
		first.Related = append(first.Related, analysis.RelatedInformation{Pos: at.Pos(), Message: "also resends " + o.what + " without a key"})
		return
	}
	d := analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Related: related}
	if s.Kind.FromFramework() {
		// Nothing runs before the first run to make a key in: it must come from what the
		// framework delivers again with the same identity.
		d.Message = report.Fit(
			fmt.Sprintf("%s is sent without an idempotency key on every run of %s, so %s's retries can repeat its effect; derive one from %s",
				o.what, s.Describe(c.pass.Pkg), s.Framework, s.IdentityHint()),
			fmt.Sprintf("%s is sent without an idempotency key per run of %s, so retries can repeat it; derive one from %s",
				o.what, s.Describe(c.pass.Pkg), s.IdentityWhat()),
			fmt.Sprintf("%s is sent without an idempotency key, so %s's retries can repeat it; derive one from %s",
				o.what, s.Framework, s.IdentityWhat()),
			fmt.Sprintf("%s has no idempotency key, so %s's retries can repeat it; derive one from %s",
				o.what, s.Framework, s.IdentityWhat()),
			fmt.Sprintf("%s has no idempotency key, so retries can repeat it; derive one from %s",
				o.what, s.IdentityWhat()))
		c.keep(s, d)
		return
	}
	fix := "; send one made before the retries"
	if o.via != "" {
		fix = "; " + o.via + " must send one made before the retries"
	}
	if f, ok := c.fix(o, s); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{f}
	}
	d.Message = report.Fit(
		fmt.Sprintf("%s is retried without an idempotency key, so a retry after a timeout can repeat its effect%s", o.what, fix),
		fmt.Sprintf("%s is retried without an idempotency key, so a retry can repeat it%s", o.what, fix),
		fmt.Sprintf("%s is retried with no idempotency key%s", o.what, fix),
		fmt.Sprintf("%s is retried without an idempotency key, so a retry after a timeout can repeat its effect", o.what))
	c.keep(s, d)
}

// keep holds d as scope s's finding, reported when the run ends.
func (c *checker) keep(s *retryscope.Scope, d analysis.Diagnostic) {
	c.byScope[s] = &d
	c.scopeOrder = append(c.scopeOrder, s)
}

// reportHelped reports, once at a retrying client's call or at a helper's retry loop, the
// non-idempotent requests that the package's functions hand to it without an idempotency key:
// it retries every method, so each of them can be repeated; the line to change is its retry
// policy (retry only idempotent requests) or the helper (send a key). The requests are related
// positions.
func (c *checker) reportHelped(s *retryscope.Scope, ops []*op) {
	c.reportGroup(c.span(s.Pos()), c.scopeName(s, c.pass.Pkg), ops)
}

// sharedClient reports whether call is a call of a method of a client the package keeps in
// a struct field or a package variable (c.http.Do(req), or a resty request made from one,
// wherever the chain of the request starts): every method that sends through it shares its
// retry policy. A client made by each function (client := newRetrying()) is not.
func sharedClient(call ssa.CallInstruction) bool {
	fn := flow.Callee(call.Common())
	if fn == nil {
		return false
	}
	recv := flow.NewSite(call.Common(), fn).Recv
	if kept(recv) || recv != nil && kept(remote.RestyClientOf(recv)) {
		return true
	}
	// A kept resty client handed to a function that sends through it (api.Call(c.http, req)).
	return slices.ContainsFunc(call.Common().Args, func(a ssa.Value) bool {
		return typeis.Named(a.Type(), knowledge.RestyClient.Pkg, knowledge.RestyClient.Name) && kept(a)
	})
}

// kept reports whether v is loaded from a struct field or a package variable.
func kept(v ssa.Value) bool {
	recv := flow.Unwrap(v)
	if recv == nil {
		return false
	}
	if _, fa := flow.FieldLoad(recv); fa != nil {
		return true
	}
	load, ok := recv.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	_, global := load.X.(*ssa.Global)
	return global
}

// A madeOp is a request sent through a Client scope, whose client is made in view.
type madeOp struct {
	op    *op
	scope *retryscope.Scope
}

// ownHelper returns the retry helper of this package whose callback scope s is (an inferred
// helper: doWithRetries(func() (*Response, error) { return POST(path, ...) }, ...)), or nil.
func (c *checker) ownHelper(s *retryscope.Scope) *types.Func {
	if s.Kind == retryscope.Callback && s.Inferred && s.Func != nil && s.Func.Pkg() == c.pass.Pkg {
		return s.Func
	}
	return nil
}

// reportByHelper reports the requests that the package's calls hand to its own retry helper h
// in their callbacks: one, as any other; several, once at the helper's retry loop, which
// retries whatever its callers send (its policy is the line to change, or each call must send
// a key), with the requests as related positions.
func (c *checker) reportByHelper(h *types.Func, ops []madeOp) {
	var loop *retryscope.Scope
	for _, s := range c.scopes.Scopes {
		if fn, ok := fnObject(s.Fn); ok && fn == h && s.Kind.HandWritten() && s.Pos().IsValid() {
			loop = s
			break
		}
	}
	if len(ops) == 1 || loop == nil {
		for _, m := range ops {
			c.report(m.op, m.scope)
		}
		return
	}
	group := make([]*op, len(ops))
	for i, m := range ops {
		group[i] = m.op
	}
	c.reportGroup(c.span(loop.Pos()), c.scopeName(loop, c.pass.Pkg), group)
}

// reportMade reports the requests sent without a key through clients made at one place:
// alone, as any other; several, once where the client is made, which retries every method
// (its retry policy is the line to change, or each call must send a key), with the
// requests as related positions.
func (c *checker) reportMade(at token.Pos, made []madeOp) {
	if len(made) == 1 {
		c.report(made[0].op, made[0].scope)
		return
	}
	ops := make([]*op, len(made))
	for i, m := range made {
		ops[i] = m.op
	}
	c.reportGroup(c.span(at), "the client configured here", ops)
}

// reportGroup reports at node that who retries ops, non-idempotent requests without a key
// (one cause), with each request (the first 20) as a related position.
func (c *checker) reportGroup(node ast.Node, who string, ops []*op) {
	const most = 20
	var related []analysis.RelatedInformation
	for i, o := range ops {
		if i == most {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: c.span(o.call.Pos()).Pos(), Message: o.what + " sent here"})
	}
	first := ops[0].what
	others, their := "", "its"
	switch n := len(ops) - 1; {
	case n == 1:
		others, their = " and 1 other request", "their"
	case n > 1:
		others, their = fmt.Sprintf(" and %d other requests", n), "their"
	}
	c.rep.Report(analysis.Diagnostic{Pos: node.Pos(), End: node.End(), Related: related, Message: report.Fit(
		fmt.Sprintf("%s retries %s%s without an idempotency key, so a retry after a timeout can repeat %s effect; retry only idempotent requests, or send keys", who, first, others, their),
		fmt.Sprintf("%s retries %s%s without an idempotency key, so a retry can repeat %s effect", who, first, others, their),
		fmt.Sprintf("%s retries %s%s without a key: a retry can repeat %s effect", who, first, others, their),
		fmt.Sprintf("%s retries %s%s with no idempotency key", who, first, others))})
}

// span returns the call expression whose Lparen is lparen (where SSA puts a call), or a node
// of the position alone.
func (c *checker) span(lparen token.Pos) ast.Node {
	if cur, ok := c.calls.At(lparen); ok {
		return cur.Node()
	}
	return &ast.Ident{NamePos: lparen}
}

// A method is an entry of -unkeyedretry.grpc: [pkg.]Service/Method.
type method struct {
	pkg, service, name string // name "*": every method
}

func parseMethod(s string) (method, error) {
	svc, name, ok := strings.Cut(strings.TrimPrefix(s, "/"), "/")
	if !ok || svc == "" || name == "" || strings.Contains(name, "/") {
		return method{}, fmt.Errorf("gRPC method %q: want pkg.Service/Method", s)
	}
	m := method{service: svc, name: name}
	if i := strings.LastIndex(svc, "."); i >= 0 {
		m.pkg, m.service = svc[:i], svc[i+1:]
	}
	return m, nil
}

// matches reports whether the full method name "/pkg.Service/Method" is m.
func (m method) matches(full string) bool {
	svc, name, ok := strings.Cut(strings.TrimPrefix(full, "/"), "/")
	if !ok || m.name != "*" && m.name != name {
		return false
	}
	pkg := ""
	if i := strings.LastIndex(svc, "."); i >= 0 {
		pkg, svc = svc[:i], svc[i+1:]
	}
	return svc == m.service && (m.pkg == "" || m.pkg == pkg)
}

// grpcMethod returns the -unkeyedretry.grpc entry that a gRPC call calls: by the method
// string of ClientConn.Invoke, by the stub package's FullMethodName constant, or by the stub's
// client type (Service + "Client") and method.
func (c *checker) grpcMethod(call ssa.CallInstruction, fn *types.Func) (string, bool) {
	id := flow.ID(fn)
	if id.Name == "Invoke" && id.Pkg == knowledge.GRPCPath {
		site := flow.NewSite(call.Common(), fn)
		full, ok := flow.StringConst(site.Arg(1))
		if !ok {
			return "", false
		}
		for _, m := range c.grpc {
			if m.matches(full) {
				return strings.TrimPrefix(full, "/"), true
			}
		}
		return "", false
	}
	if fn.Pkg() == nil {
		return "", false
	}
	service, ok := strings.CutSuffix(id.Recv, "Client")
	if !ok {
		service, ok = strings.CutSuffix(id.Recv, "client")
	}
	if !ok || service == "" {
		return "", false
	}
	for _, m := range c.grpc {
		if !strings.EqualFold(m.service, service) || m.name != "*" && m.name != id.Name {
			continue
		}
		// protoc-gen-go-grpc declares Service_Method_FullMethodName = "/pkg.Service/Method".
		if k, ok := fn.Pkg().Scope().Lookup(m.service + "_" + id.Name + "_FullMethodName").(*types.Const); ok && k.Val().Kind() == constant.String {
			full := constant.StringVal(k.Val())
			if m.matches(full) {
				return strings.TrimPrefix(full, "/"), true
			}
			continue
		}
		return m.service + "/" + id.Name, true
	}
	return "", false
}

// fnObject returns the declared function fn is, if any.
func fnObject(fn *ssa.Function) (*types.Func, bool) {
	if fn == nil {
		return nil, false
	}
	obj, ok := fn.Object().(*types.Func)
	return obj, ok
}

// reachableOps returns those of ops, sent by callee, that call can reach: a send that a test
// of a bool parameter guards is not reached by a call that passes the constant that turns it
// away (newRawRequest(api, false, params) never takes its if post { PostForm } branch).
func reachableOps(ops []*op, callee *ssa.Function, call ssa.CallInstruction) []*op {
	if len(ops) == 0 || len(callee.Blocks) == 0 {
		return ops
	}
	args := call.Common().Args
	known := make(map[*ssa.Parameter]bool)
	for i, p := range callee.Params {
		if i < len(args) {
			if b, ok := flow.BoolConst(args[i]); ok {
				known[p] = b
			}
		}
	}
	if len(known) == 0 {
		return ops
	}
	reached := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{callee.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reached[b] {
			continue
		}
		reached[b] = true
		succs := b.Succs
		if n := len(b.Instrs); n > 0 {
			if ifInstr, ok := b.Instrs[n-1].(*ssa.If); ok {
				cond, negated := ifInstr.Cond, false
				for {
					if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
						cond, negated = not.X, !negated
						continue
					}
					break
				}
				if p, ok := cond.(*ssa.Parameter); ok {
					if v, ok := known[p]; ok {
						if v != negated {
							succs = b.Succs[:1]
						} else {
							succs = b.Succs[1:]
						}
					}
				}
			}
		}
		stack = append(stack, succs...)
	}
	var out []*op
	for _, o := range ops {
		if o.call.Parent() != callee || reached[o.call.Block()] {
			out = append(out, o)
		}
	}
	return out
}
