package unkeyedretry

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

// Requests made in one package and retried in another: a generated API package's
// CreateMonitor makes a POST and hands it to the client package's CallAPI(req), whose loop
// resends it on 5xx whatever its method.

// resendsFact marks an exported function that resends, in a retry scope of its own, the
// request its callers hand it as parameter Index, without a key of its own, and without
// looking at the method or with tests of it that let a POST go round (passesPost): a
// caller's POST can be repeated.
type resendsFact struct {
	Index int
	Scope string // "the retry loop in datadog.APIClient.CallAPI"
	At    string // where the scope is: "client.go:169"
}

func (*resendsFact) AFact() {}

func (f *resendsFact) String() string {
	return fmt.Sprintf("resends the request of parameter %d in %s (%s)", f.Index, f.Scope, f.At)
}

// exportResends exports a resendsFact for each exported function of the package whose retry
// scope resends the request of one of its parameters.
func (c *checker) exportResends() {
	done := make(map[*types.Func]bool)
	for _, s := range c.remote.Sends() {
		p := s.FromParam
		if p == nil || s.Method != "" || c.inTest(p.Parent()) {
			continue // (a method of its own: the package's findings say)
		}
		fn := p.Parent()
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj.Pkg() != c.pass.Pkg || !obj.Exported() || done[obj] || c.readsKey(fn) || c.keyer.Keyed(s.Instr) {
			continue
		}
		// The scope may be a helper's that fn hands the request to (DoHTTP(ctx, client,
		// req) calling state.run(req), whose loop resends it). Each function on the way may
		// decide by the method or the key; only the scope's own tests of the method are
		// followed (passesPost).
		sc, in, guarded, keyed := c.resending(s), s, false, false
		for depth := 0; sc == nil && in.Inner != nil && in.Inner.FromParam != nil && depth < 8; depth++ {
			guarded = guarded || readsMethod(in.FromParam.Parent())
			in = in.Inner
			sc = c.resending(in)
			keyed = keyed || c.readsKey(in.FromParam.Parent())
		}
		if sc != nil && keyed {
			continue // it retries only keyed requests
		}
		if sc != nil && (guarded || readsMethod(in.FromParam.Parent()) && !passesPost(sc, in.Instr, in.FromParam.Parent())) {
			continue // it retries only some methods, a POST not among them
		}
		switch {
		case sc == nil:
		case roundTrip(fn):
			// Its callers are behind an http.Client: no fact reaches them. Reported here.
			c.reportTransport(fn, sc)
			done[obj] = true
		default:
			pos := c.pass.Fset.Position(sc.Pos())
			c.pass.ExportObjectFact(obj, &resendsFact{
				Index: slices.Index(fn.Params, p),
				Scope: c.scopeName(sc, nil),
				At:    fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line),
			})
			done[obj] = true
		}
	}
}

// resending returns the retry scope that resends the request s sends, or nil.
func (c *checker) resending(s *remote.Send) *retryscope.Scope {
	scopes := c.scopes.Enclosing(s.Instr)
	if cs := c.clients[s.Instr]; cs != nil {
		scopes = append(scopes, cs)
	}
	for _, sc := range scopes {
		if !sc.Kind.FromFramework() && sc.Kind != retryscope.Reconciler && c.scopes.Resends(sc, s.Instr) {
			return sc
		}
	}
	return nil
}

// readsKey reports whether fn, or a function literal in it, reads a header of a request
// named as an idempotency key (req.Header.Get("Idempotency-Key")): a transport that may retry
// only keyed requests. A response's header says nothing about the request.
func (c *checker) readsKey(fn *ssa.Function) bool {
	for call := range flow.Calls(fn) {
		callee := call.Common().StaticCallee()
		if callee == nil || callee.Signature.Recv() == nil || !typeis.Named(callee.Signature.Recv().Type(), "net/http", "Header") {
			continue
		}
		if _, fa := flow.FieldLoad(flow.Unwrap(call.Common().Args[0])); fa == nil || !typeis.Request(fa.X.Type()) {
			continue
		}
		for _, a := range call.Common().Args[1:] {
			if k, ok := a.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String && c.keys.IsName(constant.StringVal(k.Value)) {
				return true
			}
		}
	}
	return slices.ContainsFunc(fn.AnonFuncs, c.readsKey)
}

// roundTrip reports whether fn is the RoundTrip method of an http.RoundTripper.
func roundTrip(fn *ssa.Function) bool {
	sig := fn.Signature
	return sig.Recv() != nil && fn.Name() == "RoundTrip" && sig.Params().Len() == 1 && typeis.Request(sig.Params().At(0).Type()) &&
		sig.Results().Len() == 2 && typeis.HTTPResponse(sig.Results().At(0).Type()) && typeis.Error(sig.Results().At(1).Type())
}

// reportTransport reports the RoundTrip fn of a transport whose retry scope sc resends the
// request it is given, a POST included (whatever its method, or past tests of the method that
// let a POST through), unkeyed: an http.Client's POSTs go through it.
// net/http's own transport resends only idempotent or keyed requests.
func (c *checker) reportTransport(fn *ssa.Function, sc *retryscope.Scope) {
	name := fn.Name()
	if obj, ok := fnObject(fn); ok {
		name = flow.Name(obj, c.pass.Pkg)
	}
	if readsMethod(fn) {
		// It tells methods apart, and lets a POST through (passesPost).
		c.rep.Report(analysis.Diagnostic{Pos: sc.Pos(), Message: report.Fit(
			name+" resends POSTs without an idempotency key, so a retried POST can take effect twice",
			name+" resends POSTs without an idempotency key")})
		return
	}
	c.rep.Report(analysis.Diagnostic{Pos: sc.Pos(), Message: report.Fit(
		name+" resends requests of every method without an idempotency key, so a retried POST can take effect twice",
		name+" resends requests of every method without a key, so a retried POST can take effect twice",
		name+" resends POSTs without an idempotency key")})
}

// readsMethod reports whether fn, or a function literal in it, decides by the method of a
// request: compares it, looks it up, or asks a predicate about it (if req.Method ==
// http.MethodGet, idempotent[req.Method], isIdempotent(req.Method)): a helper that may retry
// only some methods. Logging the method decides nothing.
func readsMethod(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			fa, ok := instr.(*ssa.FieldAddr)
			if !ok || !methodField(fa) {
				continue
			}
			for _, ld := range *fa.Referrers() {
				if u, ok := ld.(*ssa.UnOp); ok && u.Op == token.MUL && decides(u) {
					return true
				}
			}
		}
	}
	return slices.ContainsFunc(fn.AnonFuncs, readsMethod)
}

// decides reports whether the value v is compared, looked up, or handed to a predicate.
func decides(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.BinOp:
			if r.Op == token.EQL || r.Op == token.NEQ {
				return true
			}
		case *ssa.Lookup:
			return true
		case *ssa.Call:
			if res := r.Call.Signature().Results(); res.Len() == 1 && types.Identical(res.At(0).Type(), types.Typ[types.Bool]) {
				return true
			}
		}
	}
	return false
}

// viaInterface returns the non-idempotent request that call, a call of a method of an
// interface the package declares (r.Caller.Call(ctx, url, body)), sends through the package's
// implementations of it: one of them sends such a request unkeyed (an HTTPCaller posting every
// API method), and none sends a request that changes nothing. Others that send nothing the
// model knows (a recorder, a caller over another HTTP library) do not count against it.
func (c *checker) viaInterface(call ssa.CallInstruction) *op {
	var found *op
	var by *ssa.Function
	for _, impl := range c.impls.Of(call.Common()) {
		switch {
		case c.inTest(impl), impl == call.Parent():
		case len(c.sends[impl]) > 0:
			if found == nil {
				found, by = c.sends[impl][0], impl
			}
		case c.sendsRead(impl):
			return nil
		}
	}
	if found == nil {
		return nil
	}
	via := by.Name()
	if obj, ok := fnObject(by); ok {
		via = flow.Name(obj, c.pass.Pkg)
	}
	return &op{call: call, what: found.what, via: via, at: found.call.Pos()}
}

// sendsRead reports whether fn, or a function literal in it, sends a request whose method
// changes nothing on the server (GET, PUT, DELETE: idempotent), or a POST that asks.
func (c *checker) sendsRead(fn *ssa.Function) bool {
	if c.reads == nil {
		c.reads = make(map[*ssa.Function]bool)
		for _, s := range c.remote.Sends() {
			if s.Method != "" && !c.changes(s, s.Instr) {
				c.reads[flow.Root(s.Instr.Parent())] = true
			}
		}
	}
	return c.reads[fn]
}

// resentBy returns the non-idempotent request call hands to another package's function that
// resends it (resendsFact), or nil.
func (c *checker) resentBy(call ssa.CallInstruction) (*op, *types.Func) {
	fn := flow.Callee(call.Common())
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == c.pass.Pkg || call.Common().IsInvoke() ||
		c.clients[call] != nil || c.remote.SendOf(call) != nil {
		return nil, nil // (a self-retrying client's call, or a send the model knows: checked as such)
	}
	var f resendsFact
	if !c.pass.ImportObjectFact(fn, &f) || f.Index >= len(call.Common().Args) {
		return nil, nil
	}
	s := c.remote.Handed(call, call.Common().Args[f.Index])
	if s == nil || !c.changes(s, call) || c.keyer.Keyed(call) {
		return nil, nil
	}
	return &op{call: call, what: sendWhat(s), via: flow.QualifiedName(fn, c.pass.Pkg)}, fn
}

// reportResent reports, once per function of another package that resends what it is handed,
// the non-idempotent requests this package hands it: at the first, with the others related.
func (c *checker) reportResent(fn *types.Func, ops []*op) {
	related := []analysis.RelatedInformation{}
	for i, o := range ops[1:] {
		if i == 20 {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: c.span(o.call.Pos()).Pos(), Message: o.what + " handed to it here"})
	}
	first, others, their := ops[0].what, "", "its"
	switch n := len(ops) - 1; {
	case n == 1:
		others, their = " and 1 other request", "their"
	case n > 1:
		others, their = fmt.Sprintf(" and %d other requests", n), "their"
	}
	at := c.span(ops[0].call.Pos())
	long, short := flow.QualifiedName(fn, c.pass.Pkg), flow.Name(fn, c.pass.Pkg)
	c.rep.Report(analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Related: related, Message: report.Fit(
		fmt.Sprintf("%s retries %s%s without an idempotency key, so a retry can repeat %s effect", long, first, others, their),
		fmt.Sprintf("%s retries %s%s without an idempotency key, so a retry can repeat %s effect", short, first, others, their),
		fmt.Sprintf("%s retries %s%s without a key, so a retry can repeat %s effect", short, first, others, their),
		fmt.Sprintf("%s retries %s%s with no idempotency key", short, first, others))})
}

// scopeName names s for a message: "the retry loop in Client.Do", "retryablehttp.Client.Do";
// qualified with its package's name when from is not s's package.
func (c *checker) scopeName(s *retryscope.Scope, from *types.Package) string {
	who := s.Describe(from)
	if fn, ok := fnObject(s.Fn); ok && (s.Kind == retryscope.Loop || s.Kind == retryscope.Goto) {
		who += " in " + flow.QualifiedName(fn, from)
	}
	if s.Site != nil {
		if fn := flow.Callee(s.Site.Common()); fn != nil {
			who = flow.QualifiedName(fn, from) // retryablehttp.Client.Do, not the package's own
			if in, ok := fnObject(s.Site.Parent()); ok && s.Kind == retryscope.Callback {
				who += " in " + flow.QualifiedName(in, from) // backoff.Retry in Client.request
			}
		}
	}
	return who
}
