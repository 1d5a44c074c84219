package notimeout

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "notimeout",
	Doc:      docs.MustExtract(doc, "notimeout"),
	URL:      docs.URL("notimeout"),
	Requires: []*analysis.Analyzer{remote.Analyzer, inspect.Analyzer},
	Run:      run,
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
}

// A group is the calls sending requests without a deadline through one client the package
// builds: reported once, at the client.
type group struct {
	origin *remote.Origin
	calls  []*remote.Call
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[remote.Analyzer].(*remote.Result)
	if len(res.Calls) == 0 || testSupport(pass) {
		return nil, nil
	}
	c := &checker{
		pass:  pass,
		rep:   report.New(pass, "notimeout"),
		insp:  pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		calls: syntax.NewCalls(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)),
	}
	var groups []*group
	byOrigin := make(map[token.Pos]*group)
	for _, call := range res.Calls {
		if call.Timeout.Status != remote.Unbounded || call.Stream || call.Contract.Kind != 0 || call.Loopback || c.inTest(call.Pos()) {
			continue
		}
		if o := call.Timeout.Client; call.Kind == remote.HTTP && call.Via == nil && o != nil && grouped(o) && !c.inTest(o.Pos) {
			g := byOrigin[o.Pos]
			if g == nil {
				g = &group{origin: o}
				byOrigin[o.Pos] = g
				groups = append(groups, g)
			}
			g.calls = append(g.calls, call)
			continue
		}
		c.reportCall(call)
	}
	for _, g := range groups {
		c.reportClient(g)
	}
	return nil, nil
}

// grouped reports whether calls through a client from o are reported at o: a client the
// package builds, whose declaration is the line to change.
func grouped(o *remote.Origin) bool {
	switch o.Kind {
	case remote.Local, remote.ZeroVar, remote.ZeroField:
		return o.Pos.IsValid()
	}
	return false
}

// testImports are packages that only code written for tests imports.
var testImports = []string{
	"testing",
	"github.com/stretchr/testify/",
	"github.com/onsi/ginkgo",
	"github.com/onsi/gomega",
	"go.uber.org/mock/gomock",
	"github.com/golang/mock/gomock",
	"gotest.tools/",
}

// testSupport reports whether the package is written for tests rather than production, by
// its name: testutil, testsuite, footesting, footestutil, or footest importing a package foo
// (as httptest imports http). Its remote calls talk to test servers.
func testSupport(pass *analysis.Pass) bool {
	name := pass.Pkg.Name()
	for _, suffix := range []string{"testing", "testutil", "testutils", "testhelper", "testhelpers"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	if strings.HasPrefix(name, "test") {
		return true
	}
	if base, ok := strings.CutSuffix(name, "test"); ok && base != "" {
		for _, imp := range pass.Pkg.Imports() {
			if imp.Name() == base {
				return true // apmtest for apm, transporttest for transport
			}
		}
	}
	return false
}

// testFile reports whether f is written for tests: it imports a testing package. (A package
// may mix production code and a test suite for its users, file by file.)
func testFile(f *ast.File) bool {
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, "`\"")
		for _, t := range testImports {
			if path == t || strings.HasSuffix(t, "/") && strings.HasPrefix(path, t) || strings.HasPrefix(path, t+"/") {
				return true
			}
		}
	}
	return false
}

// inTest reports whether pos is in a _test.go file or a file written for tests.
func (c *checker) inTest(pos token.Pos) bool {
	tf := c.pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	if strings.HasSuffix(tf.Name(), "_test.go") {
		return true
	}
	f := syntax.File(c.pass, pos)
	return f != nil && testFile(f)
}

// reportClient reports a client without a Timeout once, naming the first call that sends a
// request without a deadline through it, with the fix when the client is a composite literal.
func (c *checker) reportClient(g *group) {
	o, first := g.origin, g.calls[0]
	what := "this " + o.Type
	switch o.Kind {
	case remote.ZeroVar:
		what = fmt.Sprintf("the zero %s in variable %s", o.Type, o.Name)
	case remote.ZeroField:
		what = fmt.Sprintf("the zero %s in field %s", o.Type, o.Name)
	}
	msg := fmt.Sprintf("%s has no Timeout, and %s at %s sends %s, through it: a stalled server blocks that call forever",
		what, first.Name, remote.Where(c.pass.Fset, first.Pos(), o.Pos), c.request(first.Timeout, o.Pos))
	if n := len(g.calls) - 1; n == 1 {
		msg += " (so does 1 other call)"
	} else if n > 1 {
		msg += fmt.Sprintf(" (so do %d other calls)", n)
	}
	d := analysis.Diagnostic{Pos: o.Pos, Message: msg}
	if lit, ok := c.literal(o); ok {
		if hasField(lit, "Timeout") {
			return // Timeout: 0 written out: no timeout on purpose
		}
		d.Pos, d.End = lit.Pos(), lit.End()
		if fix, ok := c.addTimeout(lit); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	c.rep.Report(d)
}

// request describes the request a call sends without a deadline.
func (c *checker) request(t remote.Timeout, from token.Pos) string {
	src := t.Context
	at := remote.Where(c.pass.Fset, src.Pos, from)
	switch src.Kind {
	case 0, remote.NoContext:
		return "a request without a context"
	case remote.NewRequest, remote.TestRequest:
		return fmt.Sprintf("a request made by %s (%s), which gives it no context", src.Kind, at)
	case remote.RequestLiteral:
		return fmt.Sprintf("%s (%s), which has no context", src.Kind, at)
	}
	return fmt.Sprintf("a request whose context comes from %s (%s) and has no deadline", src.Kind, at)
}

// context describes where a context without a deadline comes from.
func (c *checker) context(t remote.Timeout, from token.Pos) string {
	if t.Context.Kind == 0 {
		return "a context without a deadline"
	}
	return fmt.Sprintf("a context without a deadline, from %s (%s)", t.Context.Kind, remote.Where(c.pass.Fset, t.Context.Pos, from))
}

func (c *checker) reportCall(call *remote.Call) {
	t := call.Timeout
	at := call.Pos()
	var msg string
	switch {
	case call.Via != nil && t.Context.Kind == remote.NoContext:
		msg = fmt.Sprintf("%s takes no context, and %s inside it (%s) has none: %s blocks this call forever",
			flow.Name(call.Func, call.Func.Pkg()), call.Name, call.Via.At, peer(call.Kind))
		if call.Via.Instead != "" {
			msg += fmt.Sprintf("; use %s%s", call.Via.Instead, c.withContext(call.Instr.Parent()))
		}
	case call.Via != nil:
		what := c.context(t, at)
		if t.Request {
			what = c.request(t, at)
		}
		msg = fmt.Sprintf("%s passes %s, to %s (%s), which nothing else bounds: %s blocks that call forever",
			flow.Name(call.Func, call.Func.Pkg()), what, call.Name, call.Via.At, peer(call.Kind)) + c.requestHint(call)
	case call.Kind == remote.HTTP && t.Context.Kind == remote.NoContext && t.Client != nil && t.Client.Kind == remote.Default && call.Func.Signature().Recv() == nil:
		msg = fmt.Sprintf("%s uses http.DefaultClient, which has no timeout: a stalled server blocks this call forever; use an http.Client with a Timeout, or a request made with http.NewRequestWithContext and a deadline", call.Name)
	case call.Kind == remote.HTTP && t.Client != nil:
		msg = fmt.Sprintf("%s sends %s, through %s, which has no timeout: a stalled server blocks this call forever",
			call.Name, c.request(t, at), t.Client.Describe(c.pass.Fset, at)) + c.requestHint(call)
	case call.Kind == remote.HTTP:
		msg = fmt.Sprintf("%s sends %s: a stalled server blocks this call forever", call.Name, c.request(t, at)) + c.requestHint(call)
	case call.Kind == remote.Dial:
		msg = c.dialMessage(call)
	case call.Kind == remote.SQL && t.Context.Kind == remote.NoContext:
		msg = fmt.Sprintf("%s takes no context, so nothing bounds it: a stalled database blocks this call forever; use %s%s",
			call.Name, contextForm(call.Name), c.withContext(call.Instr.Parent()))
	default: // gRPC calls, SQL calls with a context
		msg = fmt.Sprintf("%s gets %s: %s blocks this call forever; derive one with context.WithTimeout",
			call.Name, c.context(t, at), peer(call.Kind))
	}
	d := analysis.Diagnostic{Pos: at, Message: msg}
	if cur, ok := c.calls.At(at); ok {
		d.Pos, d.End = cur.Node().Pos(), cur.Node().End()
	}
	c.rep.Report(d)
}

func (c *checker) dialMessage(call *remote.Call) string {
	t := call.Timeout
	at := call.Pos()
	stall := "connecting to an unresponsive host blocks this call for minutes, until the operating system gives up"
	if strings.HasPrefix(call.Name, "tls.") {
		stall = "a server that stalls the TLS handshake blocks this call forever"
	}
	switch {
	case strings.HasPrefix(call.Name, "grpc."):
		how := "with no timeout"
		if t.Context.Kind != remote.NoContext {
			how = "with " + c.context(t, at)
		}
		return fmt.Sprintf("%s with WithBlock waits for the connection %s: while the server is unreachable it blocks forever; use grpc.NewClient, or DialContext with a context that has a deadline", call.Name, how)
	case t.Client != nil:
		how := "without a context"
		if t.Context.Kind != remote.NoContext {
			how = "with " + c.context(t, at)
		}
		return fmt.Sprintf("%s dials %s through %s, which has no Timeout: %s", call.Name, how, t.Client.Describe(c.pass.Fset, at), stall)
	case call.Name == "net.DialTimeout":
		return fmt.Sprintf("net.DialTimeout with a zero timeout has none: %s", stall)
	}
	// With a context at hand, the caller's deadline is the one to use.
	advice := "use net.DialTimeout or a net.Dialer with a Timeout"
	if call.Name == "tls.Dial" {
		advice = "use tls.DialWithDialer with a net.Dialer that has a Timeout"
	}
	if name := contextParam(call.Instr.Parent()); name != "" {
		advice = "use a net.Dialer's DialContext with " + name
		if call.Name == "tls.Dial" {
			advice = "use a tls.Dialer's DialContext with " + name
		}
	}
	if call.Name == "tls.Dial" {
		return fmt.Sprintf("tls.Dial has no timeout: %s; %s", stall, advice)
	}
	return fmt.Sprintf("%s has no timeout: %s; %s", call.Name, stall, advice)
}

// requestHint suggests the caller's context for a request made by http.NewRequest in a
// function that has one at hand: "; make the request with http.NewRequestWithContext and ctx".
func (c *checker) requestHint(call *remote.Call) string {
	if call.Timeout.Context.Kind != remote.NewRequest {
		return ""
	}
	if name := contextParam(call.Instr.Parent()); name != "" {
		return "; make the request with http.NewRequestWithContext and " + name
	}
	return ""
}

// peer names what stalls, by kind of call.
func peer(k remote.Kind) string {
	switch k {
	case remote.SQL:
		return "a stalled database"
	case remote.Dial:
		return "an unresponsive host"
	}
	return "a stalled server"
}

// contextForm names the form of a database/sql method that takes a context: "QueryContext".
func contextForm(name string) string {
	method := name[strings.LastIndex(name, ".")+1:]
	if method == "Begin" {
		return "BeginTx"
	}
	return method + "Context"
}

// withContext names the context parameter of fn or of the functions around it, as " with ctx",
// or says what kind of context to use.
func (c *checker) withContext(fn *ssa.Function) string {
	if name := contextParam(fn); name != "" {
		return " with " + name
	}
	return " with a context that has a deadline"
}

// contextParam returns the name of a context.Context parameter of fn or of the functions
// around it, or "".
func contextParam(fn *ssa.Function) string {
	for f := fn; f != nil; f = f.Parent() {
		for _, p := range f.Params {
			if typeis.Context(p.Type()) && p.Name() != "_" && p.Name() != "" {
				return p.Name()
			}
		}
	}
	return ""
}

// literal returns the http.Client composite literal the origin was built from: the literal
// itself, or the one a local variable is declared with (c := http.Client{}).
func (c *checker) literal(o *remote.Origin) (*ast.CompositeLit, bool) {
	if o.Kind != remote.Local || o.Alloc == nil {
		return nil, false
	}
	if o.Alloc.Comment != "complit" {
		return c.declaredWith(o.Pos)
	}
	if c.lits == nil {
		c.lits = make(map[token.Pos]inspector.Cursor)
		for cur := range c.insp.Root().Preorder((*ast.CompositeLit)(nil)) {
			c.lits[cur.Node().(*ast.CompositeLit).Lbrace] = cur
		}
	}
	cur, ok := c.lits[o.Pos]
	if !ok {
		return nil, false
	}
	return cur.Node().(*ast.CompositeLit), true
}

// addTimeout returns the fix that adds a Timeout field to the client literal lit.
func (c *checker) addTimeout(lit *ast.CompositeLit) (analysis.SuggestedFix, bool) {
	for _, e := range lit.Elts {
		if _, ok := e.(*ast.KeyValueExpr); !ok {
			return analysis.SuggestedFix{}, false // positional fields: leave it to a human
		}
	}
	file := syntax.File(c.pass, lit.Pos())
	tf := c.pass.Fset.File(lit.Pos())
	if file == nil || tf == nil {
		return analysis.SuggestedFix{}, false
	}
	timeName, edits := edit.AddImport(c.pass.Fset, c.pass.Pkg, file, "time")
	field := "Timeout: " + Render(time.Duration(Default), timeName)
	switch {
	case len(lit.Elts) == 0:
		edits = append(edits, analysis.TextEdit{Pos: lit.Rbrace, End: lit.Rbrace, NewText: []byte(field)})
	case tf.Line(lit.Elts[len(lit.Elts)-1].End()) == tf.Line(lit.Rbrace):
		last := lit.Elts[len(lit.Elts)-1]
		edits = append(edits, analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(", " + field)})
	default:
		// One field per line: a new line before the closing brace, indented like the last field.
		src, err := c.pass.ReadFile(tf.Name())
		if err != nil || tf.Size() != len(src) {
			return analysis.SuggestedFix{}, false
		}
		last := lit.Elts[len(lit.Elts)-1]
		start := tf.LineStart(tf.Line(last.Pos()))
		so := tf.Offset(start)
		indent := ""
		for i := so; i < len(src) && (src[i] == '\t' || src[i] == ' '); i++ {
			indent += string(src[i])
		}
		at := tf.LineStart(tf.Line(lit.Rbrace))
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(indent + field + ",\n")})
	}
	return analysis.SuggestedFix{
		Message:   "Add Timeout: " + Render(time.Duration(Default), timeName) + " to the client",
		TextEdits: edits,
	}, true
}

// declaredWith returns the composite literal that the variable declared at pos is
// initialised with.
func (c *checker) declaredWith(pos token.Pos) (*ast.CompositeLit, bool) {
	lit := func(e ast.Expr) (*ast.CompositeLit, bool) {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		cl, ok := e.(*ast.CompositeLit)
		return cl, ok
	}
	for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE || len(n.Lhs) != len(n.Rhs) || pos < n.Pos() || pos >= n.End() {
				continue
			}
			for i, l := range n.Lhs {
				if l.Pos() == pos {
					return lit(n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) != len(n.Values) || pos < n.Pos() || pos >= n.End() {
				continue
			}
			for i, name := range n.Names {
				if name.Pos() == pos {
					return lit(n.Values[i])
				}
			}
		}
	}
	return nil, false
}

// hasField reports whether the composite literal lit sets the field name.
func hasField(lit *ast.CompositeLit, name string) bool {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return true
			}
		}
	}
	return false
}

// Render writes d as idiomatic Go using the time package named pkg: "30 * time.Second",
// "500 * time.Millisecond", "time.Minute".
func Render(d time.Duration, pkg string) string {
	units := []struct {
		d    time.Duration
		name string
	}{
		{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"},
		{time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}, {time.Nanosecond, "Nanosecond"},
	}
	for _, u := range units {
		if d%u.d != 0 {
			continue
		}
		if n := d / u.d; n != 1 {
			return fmt.Sprintf("%d * %s.%s", n, pkg, u.name)
		}
		return pkg + "." + u.name
	}
	return fmt.Sprintf("%d", d)
}
