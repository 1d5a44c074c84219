package notimeout

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// Messages name the call, why nothing bounds it and what a stalled peer does to it, with one
// piece of advice when there is a line-local one; where the client was built, where the
// context was made and the function that passes its context on are Related positions.

// reportClient reports a client without a Timeout once, naming the first call that sends a
// request without a deadline through it, with the fix when the client is a composite literal.
func (c *checker) reportClient(g *group) {
	o, first := g.origin, g.calls[0]
	if o.Zeroed.IsValid() && g.byDefault {
		return // c.Timeout = 0 written out, every request carrying its caller's context: on purpose
	}
	others := ""
	switch n := len(g.calls) - 1; {
	case n == 1:
		others = " (and 1 other call)"
	case n > 1:
		others = fmt.Sprintf(" (and %d other calls)", n)
	}
	client, name := c.client(o), c.name(first.Func)
	set, setDefault, byDefault := "set "+o.Field, "set a default "+o.Field, " by default"
	if o.Kind == remote.Default {
		// http.DefaultClient is shared by the whole program: the fix is another default.
		set, byDefault = "use a client with a "+o.Field, " as the default"
		setDefault = set
	}
	msg := report.Fit(
		fmt.Sprintf("%s has no %s, so a stalled server hangs %s, whose request has no deadline%s; %s", client, o.Field, name, others, set),
		fmt.Sprintf("%s has no %s, so a stalled server hangs %s%s; %s", client, o.Field, name, others, set),
		fmt.Sprintf("%s has no %s, so a stalled server hangs %s%s", client, o.Field, name, others),
		fmt.Sprintf("%s has no %s, so %s%s can hang", client, o.Field, name, others))
	if g.byDefault {
		// A library's default: its callers' contexts are all that bound the calls.
		plain := *o
		plain.Fallback = false
		client, sender := c.client(&plain), c.sender(first)
		msg = report.Fit(
			fmt.Sprintf("%s has no %s%s, so %s%s can hang unless callers set deadlines; %s", client, o.Field, byDefault, sender, others, setDefault),
			fmt.Sprintf("%s has no %s%s, so %s%s can hang; %s", client, o.Field, byDefault, sender, others, setDefault),
			fmt.Sprintf("%s has no %s%s, so %s%s can hang unless callers set deadlines", client, o.Field, byDefault, sender, others))
	}
	var rel related
	for i, call := range g.calls {
		if i == maxRelated {
			break // the count is in the message
		}
		if call.Timeout.Status == remote.Unknown {
			rel.add(call.Pos(), "%s sends a request with its caller's context through it", c.sender(call))
			continue
		}
		rel.add(call.Pos(), "%s sends %s through it", c.name(call.Func), request(call.Timeout))
		rel.source(call.Timeout.Context)
	}
	rel.given(o)
	stream, streams := c.streamClients[o.Pos]
	if streams {
		rel.add(stream, "%s reads a stream through it, which a Timeout would cut", c.sender(c.streamCalls[o.Pos]))
		msg = report.Fit(
			fmt.Sprintf("%s has no %s, so %s%s can hang; it also streams: give each request a deadline", c.client(o), o.Field, c.sender(first), others),
			fmt.Sprintf("%s has no %s, so %s%s can hang; it also reads a stream", c.client(o), o.Field, c.sender(first), others),
			fmt.Sprintf("%s has no %s, so %s%s can hang", c.client(o), o.Field, c.sender(first), others))
	}
	c.reportAtClient(o, msg, rel, streams)
}

// reportAtClient reports msg at the client o, with the fix that adds a Timeout when it is an
// http.Client composite literal; not at all when the literal says Timeout: 0.
func (c *checker) reportAtClient(o *remote.Origin, msg string, rel related, streams bool) {
	d := analysis.Diagnostic{Pos: o.Pos, Message: msg, Related: rel}
	if lit, ok := c.literal(o); ok && typeis.Named(c.pass.TypesInfo.TypeOf(lit), "net/http", "Client") {
		if edit.HasField(lit, "Timeout") && !o.Unset.IsValid() {
			return // Timeout: 0 written out: no timeout on purpose
		}
		d.Pos, d.End = lit.Pos(), lit.End()
		if streams || o.Unset.IsValid() {
			// A Timeout would cut the stream: the fix (a deadline per request, a transport's
			// ResponseHeaderTimeout) is the team's to choose. A Timeout taken from a setting
			// that is zero by default: the default belongs where that setting is made.
		} else if fix, ok := c.addTimeout(lit); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	if call, ok := c.constructorCall(o); ok && !streams {
		if fix, ok := c.addSetTimeout(call); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	c.rep.Report(d)
}

// reportAPIClients reports the clients without a Timeout that exported functions make for
// the package's API once, where the first is made, the others related: the callers that give
// them to the API send through them. The fix adds a Timeout to each, when they are composite
// literals in different files.
func (c *checker) reportAPIClients(as []*remote.APIClient) {
	var lits []*ast.CompositeLit
	var makers []*remote.APIClient
	for _, a := range as {
		lit, ok := c.literal(a.Origin)
		if ok && edit.HasField(lit, "Timeout") {
			continue // Timeout: 0 written out: no timeout on purpose
		}
		lits, makers = append(lits, lit), append(makers, a)
	}
	if len(makers) == 0 {
		return
	}
	first := makers[0]
	maker, sender := c.funcName(first.Func), c.sender(first.Sends)
	msg := report.Fit(
		fmt.Sprintf("%s returns an http.Client with no Timeout, so %s can hang through it unless callers set deadlines; set a Timeout", maker, sender),
		fmt.Sprintf("%s returns an http.Client with no Timeout, so %s can hang through it; set a Timeout", maker, sender),
		fmt.Sprintf("%s returns an http.Client with no Timeout, so %s can hang through it", maker, sender))
	if n := len(makers) - 1; n > 0 {
		others := "1 other function"
		if n > 1 {
			others = fmt.Sprintf("%d other functions", n)
		}
		msg = report.Fit(
			fmt.Sprintf("%s and %s return http.Clients with no Timeout, so %s can hang through them; set Timeouts", maker, others, sender),
			fmt.Sprintf("%s and %s return http.Clients with no Timeout, so %s can hang through them", maker, others, sender))
	}
	var rel related
	rel.add(first.Sends.Pos(), "%s sends a request with its caller's context through the client it is given", sender)
	if o := first.Sends.Timeout.Client; o.Given.IsValid() {
		rel.add(o.Given, "the package's API is given it here")
	}
	for _, a := range makers[1:] {
		rel.add(a.Origin.Pos, "%s returns one too", c.funcName(a.Func))
	}
	d := analysis.Diagnostic{Pos: first.Origin.Pos, Message: msg, Related: rel}
	if lits[0] != nil {
		d.Pos, d.End = lits[0].Pos(), lits[0].End()
	}
	// A Timeout added to each literal; an import two of them need in one file, added once.
	var fix analysis.SuggestedFix
	for _, lit := range lits {
		f, ok := analysis.SuggestedFix{}, lit != nil
		if ok {
			f, ok = c.addTimeout(lit)
		}
		if !ok {
			fix.TextEdits = nil // all or nothing: a fix that leaves one client out is no fix
			break
		}
		fix.Message = f.Message
		for _, e := range f.TextEdits {
			if !slices.ContainsFunc(fix.TextEdits, func(x analysis.TextEdit) bool {
				return x.Pos == e.Pos && x.End == e.End && string(x.NewText) == string(e.NewText)
			}) {
				fix.TextEdits = append(fix.TextEdits, e)
			}
		}
	}
	if len(fix.TextEdits) > 0 {
		if len(lits) > 1 {
			fix.Message = strings.Replace(fix.Message, "to the client", "to each client", 1)
		}
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	c.rep.Report(d)
}

// reportConfig reports an SDK configuration loaded without an HTTP client once, at the load,
// naming the calls of the clients made from it here; one that exported functions hand out is
// the default of every client made from it elsewhere.
func (c *checker) reportConfig(g *group) {
	cfg := g.origin.Config
	this := "this " + cfg.Type
	var msg string
	switch n := len(g.calls); n {
	case 0:
		msg = report.Fit(
			fmt.Sprintf("%s has no HTTP client timeout by default, so its SDK clients can hang unless callers set deadlines; set one with %s", this, cfg.Option),
			fmt.Sprintf("%s has no HTTP client timeout by default, so its SDK clients can hang; set one with %s", this, cfg.Option),
			fmt.Sprintf("%s has no HTTP client timeout by default; set one with %s", this, cfg.Option))
	case 1:
		name := c.name(g.calls[0].Func)
		msg = report.Fit(
			fmt.Sprintf("%s has no HTTP client timeout, so a stalled server hangs %s; set one with %s", this, name, cfg.Option),
			fmt.Sprintf("%s has no HTTP client timeout, so a stalled server hangs %s", this, name))
	default:
		msg = report.Fit(
			fmt.Sprintf("%s has no HTTP client timeout, so a stalled server hangs the %d calls of its clients; set one with %s", this, n, cfg.Option),
			fmt.Sprintf("%s has no HTTP client timeout, so a stalled server hangs %d calls; set one with %s", this, n, cfg.Option))
	}
	var rel related
	for _, call := range g.calls {
		rel.add(call.Pos(), "%s sends %s through a client made from it", c.name(call.Func), request(call.Timeout))
		rel.source(call.Timeout.Context)
	}
	c.reportAt(cfg.Pos, msg, rel)
}

// reportCall reports a call that nothing bounds, at the call.
func (c *checker) reportCall(call *remote.Call, also ...*remote.Call) {
	t := call.Timeout
	var rel related
	if call.Via != nil {
		rel.via(c.pass.Pkg, call)
	}
	for _, o := range also {
		rel.add(o.Pos(), "%s sends through the same client", c.name(o.Func))
	}
	if t.Client != nil {
		rel.origin(t.Client)
	}
	rel.source(t.Context)
	c.reportAt(call.Pos(), c.message(call), rel)
}

// reportAPI reports the calls of the methods of tn, another package's type whose methods take
// no context and send through the value's own client with no Timeout, as one finding: at the
// first, the others related.
func (c *checker) reportAPI(tn *types.TypeName, calls []*remote.Call) {
	if len(calls) == 1 {
		c.reportCall(calls[0])
		return
	}
	first := calls[0]
	var rel related
	rel.via(c.pass.Pkg, first)
	for i, o := range calls[1:] {
		if i == maxRelated {
			break
		}
		rel.add(o.Pos(), "%s takes no context either", c.name(o.Func))
	}
	more := fmt.Sprintf("%s and %d more calls", c.name(first.Func), len(calls)-1)
	if len(calls) == 2 {
		more = c.name(first.Func) + " and 1 more call"
	}
	c.reportAt(first.Pos(), report.Fit(
		fmt.Sprintf("%s take no context and use %s's own client, which has no Timeout, so a stalled server hangs them", more, tn.Name()),
		fmt.Sprintf("%s take no context and use %s's client, with no Timeout: a stalled server hangs them", more, tn.Name()),
		fmt.Sprintf("%s can hang: no context, and %s's client has no Timeout", more, tn.Name())), rel)
}

// reportFresh reports the calls of one function that are each given a new context without a
// deadline (context.Background(), context.TODO()) as one finding, at the first, the others
// related; byType, those of the methods of one type (the first few related).
func (c *checker) reportFresh(calls []*remote.Call, byType bool) {
	if len(calls) == 1 {
		c.reportCall(calls[0])
		return
	}
	first := calls[0]
	var rel related
	if first.Via != nil {
		rel.via(c.pass.Pkg, first)
	}
	rel.source(first.Timeout.Context)
	for i, o := range calls[1:] {
		if byType && i == maxRelated {
			break
		}
		rel.add(o.Pos(), "%s gets %s too", c.name(o.Func), o.Timeout.Context.Kind)
	}
	fix := "use context.WithTimeout"
	if p := contextParam(first.Instr.Parent()); p != "" {
		fix = "pass " + p
	}
	where := ""
	if byType {
		where = " in " + flow.RecvNamed(first.Instr.Parent()).Name() + "'s methods"
	}
	hangs := strings.Replace(consequence(first), "this call", "them", 1)
	msg := report.Fit(
		fmt.Sprintf("%s and %s%s get contexts without a deadline, so %s; %s", c.name(first.Func), moreCalls(len(calls)-1), where, hangs, fix),
		fmt.Sprintf("%s and %s%s get contexts without a deadline: %s", c.name(first.Func), moreCalls(len(calls)-1), where, hangs))
	c.reportAt(first.Pos(), msg, rel)
}

// reportAt reports msg at pos, spanning the call expression there when there is one.
func (c *checker) reportAt(pos token.Pos, msg string, rel related) {
	d := analysis.Diagnostic{Pos: pos, Message: msg, Related: rel}
	if cur, ok := c.calls.At(pos); ok {
		d.Pos, d.End = cur.Node().Pos(), cur.Node().End()
	}
	c.rep.Report(d)
}

// reportMaker reports calls that send a request a helper of the package makes without a
// context, for callers that have none to give, as one finding where the request is made: the
// line to change. The callers (the first few) are related.
func (c *checker) reportMaker(calls []*remote.Call) {
	if len(calls) == 1 {
		c.reportCall(calls[0])
		return
	}
	first := calls[0]
	src := first.Timeout.Context
	var rel related
	for i, o := range calls {
		if i == maxRelated {
			break
		}
		rel.add(o.Pos(), "%s sends one", c.funcName(o.Instr.Parent()))
	}
	hangs := strings.Replace(consequence(first), "this call", "them", 1)
	msg := report.Fit(
		fmt.Sprintf("%s gives requests no context, and %d calls in this package send them, so %s; make them with a context", src, len(calls), hangs),
		fmt.Sprintf("%s gives requests no context, and %d calls in this package send them: %s", src, len(calls), hangs))
	c.reportAt(src.Pos, msg, rel)
}

// reportContextless reports requests made without a context by functions of the package that
// have none to give (an API written without contexts) as one finding, at the first, the next
// few related.
func (c *checker) reportContextless(calls []*remote.Call) {
	first := calls[0]
	var rel related
	for i, o := range calls[1:] {
		if i == maxRelated {
			break
		}
		rel.add(o.Pos(), "%s sends one too", c.funcName(o.Instr.Parent()))
	}
	hangs := strings.Replace(consequence(first), "this call", "them", 1)
	msg := report.Fit(
		fmt.Sprintf("%s and %s in this package send requests made without a context, so %s; make them with a context", c.funcName(first.Instr.Parent()), moreCalls(len(calls)-1), hangs),
		fmt.Sprintf("%s and %s in this package send requests made without a context: %s", c.funcName(first.Instr.Parent()), moreCalls(len(calls)-1), hangs),
		fmt.Sprintf("%s and %s here send requests without a context: %s", c.funcName(first.Instr.Parent()), moreCalls(len(calls)-1), hangs))
	c.reportAt(first.Pos(), msg, rel)
}

// funcName names fn as the messages do: Type.Method or its name.
func (c *checker) funcName(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return c.name(obj)
	}
	return fn.Name()
}

// reportSQL reports database calls without a context as one finding, at the first, the others
// related: those of one function that has a context at hand (a slip), or those of all the
// package's functions that have none (its design; inPackage, the first few related).
func (c *checker) reportSQL(calls []*remote.Call, inPackage bool) {
	if len(calls) == 1 {
		c.reportCall(calls[0])
		return
	}
	first := calls[0]
	var rel related
	for i, o := range calls[1:] {
		if inPackage && i == maxRelated {
			break
		}
		rel.add(o.Pos(), "%s takes no context either", c.name(o.Func))
	}
	fix := " with a deadline"
	if p := contextParam(first.Instr.Parent()); p != "" && !inPackage {
		fix = " with " + p
	}
	msg := fmt.Sprintf("%s and %s take no context, so a stalled database hangs them; use their Context forms%s", c.name(first.Func), moreCalls(len(calls)-1), fix)
	if inPackage {
		msg = report.Fit(
			fmt.Sprintf("%s and %s in this package take no context, so a stalled database hangs them; use their Context forms%s", c.name(first.Func), moreCalls(len(calls)-1), fix),
			fmt.Sprintf("%s and %s in this package take no context: a stalled database hangs them; use their Context forms", c.name(first.Func), moreCalls(len(calls)-1)),
			fmt.Sprintf("%s and %s in this package take no context: a stalled database hangs them", c.name(first.Func), moreCalls(len(calls)-1)))
	}
	c.reportAt(first.Pos(), msg, rel)
}

// maxRelated bounds the related positions of a finding that stands for many calls (a package's
// database calls without a context, the callers of a context-free request helper).
const maxRelated = 10

// moreCalls says "1 more call", "2 more calls".
func moreCalls(n int) string {
	if n == 1 {
		return "1 more call"
	}
	return fmt.Sprintf("%d more calls", n)
}

// message says why nothing bounds call and what a stalled peer does to it.
func (c *checker) message(call *remote.Call) string {
	t := call.Timeout
	name, fn := c.name(call.Func), call.Instr.Parent()
	hangs := ", so " + consequence(call)
	if call.Via != nil && call.Via.Kept {
		// Kept for the calls of what it returns: a deadline would end them all at once, and
		// the caller's context would end them with the caller.
		hangs = strings.Replace(hangs, "this call", "them", 1)
		return report.Fit(
			fmt.Sprintf("%s keeps a context without a deadline for its later calls of %s%s", name, call.Via.Callee, hangs),
			fmt.Sprintf("%s keeps a context without a deadline for later calls%s", name, hangs)) // (the related line names them)
	}
	if k := t.Context.Kind; call.Via != nil && (k == remote.Background || k == remote.TODO) && contextParam(fn) != "" {
		// The caller's context is at hand and dropped.
		return dropped(name, hangs, contextParam(fn), k)
	}
	if k := t.Context.Kind; call.Streams && call.Kind == remote.SDK && (k == remote.Background || k == remote.TODO) && contextParam(fn) != "" {
		// The caller's context, which ends the stream with the caller, is at hand and dropped.
		return dropped(name, hangs, contextParam(fn), k)
	}
	switch {
	case call.Streams && call.Via == nil:
		// A Timeout would cut the stream: the request needs a context that can end it.
		return report.Fit(
			fmt.Sprintf("%s's streamed response has no context that can end it, so a stalled server hangs it for ever; cancel one when it goes quiet", name),
			fmt.Sprintf("%s's stream has no context that can end it, so a stalled server hangs it; cancel one when it goes quiet", name),
			fmt.Sprintf("%s's stream has no context that can end it: a stalled server hangs it", name))
	case call.Via != nil && call.Via.Client != "" && t.Client != nil:
		// The client handed to the function is the line to change.
		return report.Fit(
			withFix(fmt.Sprintf("%s sends %s through %s (no %s)%s", name, request(t), c.client(t.Client), t.Client.Field, hangs), "set its "+t.Client.Field),
			fmt.Sprintf("%s sends %s through %s (no %s): a stalled server hangs it", name, request(t), c.client(t.Client), t.Client.Field),
			fmt.Sprintf("%s can hang: it sends %s through a client with no %s", name, request(t), t.Client.Field))
	case call.Via.Unboundable() && t.Context.Kind == remote.NoContext && call.Via.Instead == "":
		// Another package's function with no context to take, sending through its own
		// client with no Timeout: nothing the caller gives bounds it.
		return report.Fit(
			fmt.Sprintf("%s takes no context and sends through its own client with no Timeout%s", name, hangs),
			fmt.Sprintf("%s sends through a client with no Timeout and takes no context%s", name, hangs),
			fmt.Sprintf("%s can hang: no context, and its client has no Timeout", name))
	case call.Via != nil && t.Context.Kind == remote.NoContext:
		msg := withFix(fmt.Sprintf("%s calls %s without a context%s", name, call.Via.Callee, hangs), "make it take one")
		if call.Via.Instead != "" {
			msg = fmt.Sprintf("%s takes no context%s; use %s%s", name, hangs, call.Via.Instead, withContext(fn))
		}
		return msg
	case call.Kind == remote.HTTP && t.Context.Kind == remote.NewRequest && contextParam(fn) != "":
		// The caller's context is at hand: the request is the line to change.
		return report.Fit(
			fmt.Sprintf("%s's request has no context%s; make it with %s and %s", name, hangs, requestMaker(t), contextParam(fn)),
			fmt.Sprintf("%s's request has no context%s; pass %s to %s", name, hangs, contextParam(fn), requestMaker(t)))
	case call.Via != nil && call.Via.Request:
		return withFix(fmt.Sprintf("%s passes a request without a deadline to %s%s", name, call.Via.Callee, hangs), "use context.WithTimeout")
	case call.Via != nil:
		return withFix(fmt.Sprintf("%s passes a context without a deadline to %s%s", name, call.Via.Callee, hangs), "use context.WithTimeout")
	case t.Client != nil && t.Client.Kind == remote.Inside && t.Context.Kind == remote.NoContext:
		// A library function that sends through a client of its own making, with no
		// context to take: nothing the caller gives bounds it.
		return report.Fit(
			fmt.Sprintf("%s takes no context and its own client has no Timeout%s", name, hangs),
			fmt.Sprintf("%s can hang: no context, and its own client has no Timeout", name))
	case t.Client != nil && t.Client.Kind == remote.Inside:
		return report.Fit(
			fmt.Sprintf("%s's context has no deadline and its own client has no Timeout%s; use context.WithTimeout", name, hangs),
			fmt.Sprintf("%s's context has no deadline and its own client has no Timeout%s", name, hangs),
			fmt.Sprintf("%s's context has no deadline and its own client has no Timeout; use context.WithTimeout", name))
	case call.Kind == remote.HTTP && t.Client != nil && t.Client.Kind == remote.Default && call.Func.Signature().Recv() == nil:
		return fmt.Sprintf("%s uses http.DefaultClient (no timeout)%s; use a client with a Timeout", name, hangs)
	case call.Kind == remote.HTTP && t.Client != nil:
		return withFix(fmt.Sprintf("%s has no %s and %s%s", c.client(t.Client), t.Client.Field, theRequest(t), hangs), "set "+t.Client.Field)
	case call.Kind == remote.HTTP && t.Context.Kind.Contextless():
		return withFix(fmt.Sprintf("%s's %s%s", name, strings.TrimPrefix(theRequest(t), "the "), hangs), "make it with "+requestMaker(t))
	case call.Kind == remote.HTTP:
		return withFix(fmt.Sprintf("%s's %s%s", name, strings.TrimPrefix(theRequest(t), "the "), hangs), "use context.WithTimeout")
	case call.Kind == remote.Dial:
		return c.dialMessage(call, hangs)
	case t.Context.Kind == remote.NoContext: // SQL, an SDK's form without a context
		form := knowledge.ContextForm(call.Func.Name())
		if f, ok := knowledge.SDKContextForm(flow.ID(call.Func)); ok {
			form = f
		}
		return report.Fit(fmt.Sprintf("%s takes no context%s; use %s%s", name, hangs, form, withContext(fn)),
			fmt.Sprintf("%s takes no context%s; use %s", name, hangs, form))
	}
	if k := t.Context.Kind; (k == remote.Background || k == remote.TODO) && contextParam(fn) != "" {
		// The caller's context is at hand and dropped.
		return dropped(name, hangs, contextParam(fn), k)
	}
	// gRPC calls, SQL calls with a context.
	return fmt.Sprintf("%s's context has no deadline%s; use context.WithTimeout", name, hangs)
}

// dropped is the message for a call given a context of its own making (k) where its caller's
// (param) was at hand.
func dropped(name, hangs, param string, k remote.SourceKind) string {
	return report.Fit(
		fmt.Sprintf("%s's context has no deadline%s; pass %s, not %s", name, hangs, param, k),
		fmt.Sprintf("%s's context has no deadline, so it can hang; pass %s, not %s", name, param, k))
}

func (c *checker) dialMessage(call *remote.Call, hangs string) string {
	t := call.Timeout
	id := flow.ID(call.Func)
	switch {
	case id.Pkg == knowledge.GRPCPath:
		return fmt.Sprintf("%s with WithBlock waits with no deadline%s; use grpc.NewClient", c.name(call.Func), hangs)
	case strings.HasSuffix(id.Pkg, "/redigo/redis"):
		return withFix(fmt.Sprintf("%s sets no read timeout%s", c.name(call.Func), hangs), "pass redis.DialReadTimeout")
	case t.Client != nil && t.Context.Kind == remote.NoContext:
		return withFix(fmt.Sprintf("%s without a Timeout dials without a context%s", t.Client.Type, hangs), "set its Timeout")
	case t.Client != nil:
		return withFix(fmt.Sprintf("%s without a Timeout gets a context without a deadline%s", t.Client.Type, hangs), "set its Timeout")
	case id == flow.FuncID{Pkg: "net", Name: "DialTimeout"}:
		return withFix("net.DialTimeout with a zero timeout has none"+hangs, "pass a timeout")
	}
	// With a context at hand, the caller's deadline is the one to use.
	advice := "use a net.Dialer with a Timeout"
	switch id.Pkg {
	case knowledge.TLSPath:
		advice = "use tls.DialWithDialer with a Timeout"
	case "net/smtp":
		advice = "use smtp.NewClient on a timed dial"
	case knowledge.WebSocketPath:
		advice = "use DialConfig with a timed Dialer"
	}
	if ctx := contextParam(call.Instr.Parent()); ctx != "" {
		switch id.Pkg {
		case knowledge.TLSPath:
			advice = "use a tls.Dialer's DialContext with " + ctx
		case knowledge.WebSocketPath:
			advice = "use a Config's DialContext with " + ctx
		default:
			advice = "use a net.Dialer's DialContext with " + ctx
		}
	}
	return fmt.Sprintf("%s has no timeout%s; %s", c.name(call.Func), hangs, advice)
}

// withFix ends msg with "; " and fix when the whole fits in a message.
func withFix(msg, fix string) string {
	return report.Fit(msg+"; "+fix, msg)
}

// consequence says what a stalled peer does to the call.
func consequence(call *remote.Call) string {
	switch call.Kind {
	case remote.SQL:
		return "a stalled database hangs this call"
	case remote.Dial:
		switch call.Func.Pkg().Path() {
		case knowledge.GRPCPath:
			return "an unreachable server hangs this call"
		case knowledge.TLSPath:
			return "a stalled TLS handshake hangs this call"
		case knowledge.WebSocketPath:
			return "a stalled server hangs this call" // the handshake has no deadline either
		case knowledge.RedigoPaths[0], knowledge.RedigoPaths[1]:
			return "a stalled Redis server hangs every command"
		case knowledge.SMTPPath, knowledge.MailPath:
			// The conversation after the dial has no deadline either: a server that accepts
			// and then says nothing holds the call for good, not for a connect timeout.
			return "a stalled mail server hangs this call"
		}
		return "an unresponsive host blocks this call for minutes"
	}
	return "a stalled server hangs this call"
}

// request says what deadline a request lacks.
func request(t remote.Timeout) string {
	if t.Context.Kind.Contextless() {
		return "a request without a context"
	}
	return "a request whose context has no deadline"
}

// requestMaker names the function that makes the request with a context: the one of the
// library that made it without (go-retryablehttp's), else net/http's.
func requestMaker(t remote.Timeout) string {
	if name := knowledge.ContextMaker(t.Context.Name); name != "" {
		return name
	}
	return "http.NewRequestWithContext"
}

// theRequest says what deadline the request of a call lacks, in a clause.
func theRequest(t remote.Timeout) string {
	if t.Context.Kind.Contextless() {
		return "the request has no context"
	}
	return "the request's context has no deadline"
}

// client names a client or dialer without a timeout, for messages about the calls through it;
// a default that the caller may replace says so.
func (c *checker) client(o *remote.Origin) string {
	def := ""
	if o.Fallback {
		def = "default "
	}
	switch {
	case o.CopyOf != "":
		return "this " + def + "copy of " + o.CopyOf
	}
	switch o.Kind {
	case remote.Default:
		if o.Fallback {
			return "the default, " + o.Name + ","
		}
		return o.Name
	case remote.ZeroVar:
		return fmt.Sprintf("the %szero %s in variable %s", def, o.Type, o.Name)
	case remote.ZeroField:
		return fmt.Sprintf("the %szero %s in field %s", def, o.Type, o.Name)
	}
	return "this " + def + o.Type
}

// sender names the function that makes call: the method or function of the package around
// it (for a call in a function literal, the function that holds the literal).
func (c *checker) sender(call *remote.Call) string {
	fn := call.Instr.Parent()
	fn = flow.Root(fn)
	if obj, ok := fn.Object().(*types.Func); ok {
		return c.name(obj)
	}
	return fn.Name()
}

// name is how messages name a function.
func (c *checker) name(fn *types.Func) string { return flow.Name(fn, c.pass.Pkg) }

// A related lists the other places a finding involves.
type related []analysis.RelatedInformation

func (r *related) add(pos token.Pos, format string, args ...any) {
	if pos.IsValid() {
		*r = append(*r, analysis.RelatedInformation{Pos: pos, Message: fmt.Sprintf(format, args...)})
	}
}

// source adds where the context or request without a deadline is made, once.
func (r *related) source(s remote.Source) {
	for _, x := range *r {
		if x.Pos == s.Pos {
			return
		}
	}
	switch s.Kind {
	case remote.Background, remote.TODO:
		r.add(s.Pos, "%s has no deadline", s.Kind)
	case remote.WithoutCancel:
		r.add(s.Pos, "context.WithoutCancel drops the deadline")
	case remote.NewRequest, remote.TestRequest:
		r.add(s.Pos, "%s gives the request no context", s)
	case remote.RequestLiteral:
		r.add(s.Pos, "this http.Request literal has no context")
	}
}

// origin adds where a client or dialer without a timeout is built.
func (r *related) origin(o *remote.Origin) {
	switch o.Kind {
	case remote.Local:
		r.add(o.Pos, "this %s has no %s", o.Type, o.Field)
	case remote.Constructor:
		r.add(o.Pos, "%s returns %s %s %s", o.Name, article(o.Type), o.Type, without(o))
	case remote.ZeroVar:
		r.add(o.Pos, "variable %s holds a zero %s, %s", o.Name, o.Type, without(o))
	case remote.ZeroField:
		r.add(o.Pos, "field %s holds a zero %s, %s", o.Name, o.Type, without(o))
	case remote.Default:
		if o.Fallback {
			r.add(o.Pos, "%s is the default when no client is given", o.Name)
		}
	}
	r.given(o)
}

// given adds, for a default the caller may replace, where the caller's client comes in; for
// a Timeout taken from a setting that is zero by default, where it is taken.
func (r *related) given(o *remote.Origin) {
	if o.Fallback {
		r.add(o.Given, "a client given here replaces the default")
	}
	if o.Unset.IsValid() && o.UnsetFrom != "" {
		r.add(o.Unset, "its Timeout is %s, zero unless users set it", o.UnsetFrom)
	}
}

// without says that a client or dialer lacks its timeout: "without a Timeout", "with no
// HTTPClient.Timeout".
func without(o *remote.Origin) string {
	if o.Field == "Timeout" {
		return "without a Timeout"
	}
	return "with no " + o.Field
}

// article is the indefinite article for a type's name: "an http.Client", "a net.Dialer".
func article(typ string) string {
	if strings.HasPrefix(typ, "http.") {
		return "an"
	}
	return "a"
}

// via adds the function that call goes through, at its declaration.
func (r *related) via(from *types.Package, call *remote.Call) {
	name, p := flow.Name(call.Func, from), call.Via
	switch {
	case p.Client != "":
		r.add(call.Func.Pos(), "%s sends requests through the %s it is given", name, p.Client)
	case p.Index < 0:
		r.add(call.Func.Pos(), "%s calls %s without a context", name, p.Callee)
	case p.Request:
		r.add(call.Func.Pos(), "%s passes its request's context to %s", name, p.Callee)
	case p.Kept:
		r.add(call.Func.Pos(), "%s keeps its context for later calls of %s", name, p.Callee)
	default:
		r.add(call.Func.Pos(), "%s passes its context to %s", name, p.Callee)
	}
}

// withContext says which context to give the form that takes one: " with ctx", the context
// parameter of fn or of the functions around it, or " and context.WithTimeout".
func withContext(fn *ssa.Function) string {
	if name := contextParam(fn); name != "" {
		return " with " + name
	}
	return " and context.WithTimeout"
}

// contextParam returns the name of a context.Context parameter of fn or of the functions
// around it, or "".
func contextParam(fn *ssa.Function) string {
	if p := flow.ContextInScope(fn); p != nil {
		return p.Name()
	}
	if p := flow.RequestParam(fn); p != nil {
		return p.Name() + ".Context()"
	}
	return ""
}
