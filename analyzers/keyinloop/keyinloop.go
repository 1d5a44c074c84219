package keyinloop

import (
	_ "embed"
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/guard"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/keys"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "keyinloop",
	Doc:      docs.MustExtract(doc, "keyinloop"),
	URL:      docs.URL("keyinloop"),
	Requires: []*analysis.Analyzer{retryscope.Analyzer, keys.Analyzer, ssapkg.Analyzer, inspect.Analyzer},
	Run:      guard.Run("keyinloop", run),
}

type checker struct {
	pass   *analysis.Pass
	rep    *report.Reporter
	scopes *retryscope.Result
	keys   *keys.Result
	calls  *syntax.Calls
	// derived counts the keys a fix derives per framework scope, to give each its own purpose.
	derived map[*retryscope.Scope]int
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:   pass,
		rep:    report.New(pass, "keyinloop"),
		scopes: pass.ResultOf[retryscope.Analyzer].(*retryscope.Result),
		keys:   pass.ResultOf[keys.Analyzer].(*keys.Result),
		calls:  syntax.NewCalls(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)),
	}
	if len(c.scopes.Scopes) == 0 || testcode.Package(pass) {
		return nil, nil // no retries, nothing to check; or code written for tests
	}
	c.checkRegistered()
	for _, fn := range pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).SrcFuncs {
		for call := range flow.Calls(fn) {
			if testcode.At(pass, call.Pos()) {
				continue // a test that asks again with a new key on purpose
			}
			if g, ok := c.keys.Generator(call); ok {
				c.checkGeneration(g)
			} else if f, ok := c.keys.Mints(call); ok {
				c.checkMint(call, f)
			}
		}
	}
	return nil, nil
}

// retryScopes returns the scopes that repeat instr, innermost first; clients retry requests
// they were given, not the code around them.
func (c *checker) retryScopes(instr ssa.Instruction) []*retryscope.Scope {
	var out []*retryscope.Scope
	for _, s := range c.scopes.Enclosing(instr) {
		if s.Kind != retryscope.Client {
			out = append(out, s)
		}
	}
	return out
}

func (c *checker) checkGeneration(g keys.Generation) {
	enclosing := c.retryScopes(g.Call)
	if len(enclosing) == 0 {
		return
	}
	inner := enclosing[0]
	f := c.keys.Follow(g)
	if len(f.Sinks) == 0 || f.FillsIn(func(b *ssa.BasicBlock) bool { return within(inner, b) }) {
		return // not sent as a key, or fills in a missing key once and later attempts reuse it
	}
	sinks := f.Sinks
	// The fix moves the key before the outermost scope whose syntax holds the generator.
	scope := inner
	for _, s := range enclosing {
		if s.Contains(g.Call.Pos()) && s.Stmt != nil {
			scope = s
		}
	}
	where := scope.Describe(c.pass.Pkg)
	msg := report.Fit(
		fmt.Sprintf("%s makes a new idempotency key on every attempt of %s, so the server cannot deduplicate the retries; move it out", g.Name, where),
		fmt.Sprintf("%s makes a new idempotency key per attempt of %s: retries cannot be deduplicated; move it out", g.Name, where),
		fmt.Sprintf("%s makes a new idempotency key per attempt of %s; move it out", g.Name, where))
	// A framework runs the whole scope again: a key made anywhere in it, even inside a loop of
	// its own, is new on every run; it must come from what the framework delivers again.
	fw := frameworkScope(enclosing)
	if fw != nil && fw.Loop == nil && onlyReturned(sinks, fw) {
		return // made for the caller (a workflow records an activity's result once), not sent
	}
	if fw != nil {
		scope = fw
		where, from := fw.Describe(c.pass.Pkg), fw.IdentityHint()
		msg = report.Fit(
			fmt.Sprintf("%s makes a new idempotency key on every run of %s, so its retries cannot be deduplicated; derive it from %s", g.Name, where, from),
			fmt.Sprintf("%s makes a new idempotency key per run of %s: retries cannot be deduplicated; derive it from %s", g.Name, where, from),
			fmt.Sprintf("%s makes a new idempotency key per run of %s; derive it from %s", g.Name, where, fw.IdentityWhat()),
			fmt.Sprintf("%s makes a new idempotency key per run; derive it from %s", g.Name, fw.IdentityWhat()))
	}
	d := analysis.Diagnostic{Message: msg, Related: c.related(scope, &sinks[0], "")}
	cur, ok := c.calls.At(g.Call.Pos())
	if ok {
		d.Pos, d.End = cur.Node().Pos(), cur.Node().End()
		fix, ok := analysis.SuggestedFix{}, false
		if fw != nil {
			fix, ok = c.deriveFix(cur, fw)
		} else {
			fix, ok = c.fix(cur, scope)
		}
		if ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	} else {
		d.Pos = g.Call.Pos()
	}
	c.rep.Report(d)
}

func (c *checker) checkMint(call ssa.CallInstruction, f *keys.MintsFact) {
	callee := call.Common().StaticCallee()
	if callee == call.Parent() {
		return // a recursive retry: its own key is reported where it is made
	}
	enclosing := c.retryScopes(call)
	if len(enclosing) == 0 {
		return
	}
	name := "the called function"
	if fn := flow.Callee(call.Common()); fn != nil {
		name = flow.Name(fn, c.pass.Pkg)
	}
	d := analysis.Diagnostic{
		Pos: call.Pos(),
		Message: report.Fit(
			fmt.Sprintf("%s makes a new idempotency key on every call, so every attempt of %s sends a different key; make it once, outside", name, enclosing[0].Describe(c.pass.Pkg)),
			fmt.Sprintf("%s makes a new idempotency key per call: each attempt of %s sends a different one", name, enclosing[0].Describe(c.pass.Pkg))),
		Related: c.related(enclosing[0], nil, "key made by "+f.Generator),
	}
	if cur, ok := c.calls.At(call.Pos()); ok {
		d.Pos, d.End = cur.Node().Pos(), cur.Node().End()
	}
	c.rep.Report(d)
}

// related lists the other places a finding involves: the retry scope, and where the key is
// sent (or, for a call that mints keys, a note on the call itself).
func (c *checker) related(s *retryscope.Scope, sink *keys.Sink, note string) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	if p := s.Pos(); p.IsValid() {
		r := analysis.RelatedInformation{Pos: p, Message: s.Kind.String()}
		if s.Node != nil {
			r.End = s.Node.End()
		}
		out = append(out, r)
	}
	if p := s.Registered; p.IsValid() && p != s.Pos() {
		out = append(out, analysis.RelatedInformation{Pos: p, Message: "run again by " + s.Framework})
	}
	if sink != nil && sink.Instr.Pos().IsValid() {
		out = append(out, analysis.RelatedInformation{Pos: sink.Instr.Pos(), Message: "sent as " + sink.What})
	}
	if note != "" && len(out) > 0 {
		out = append(out, analysis.RelatedInformation{Pos: out[0].Pos, Message: note})
	}
	return out
}

// within reports whether block b runs on every attempt of scope s.
func within(s *retryscope.Scope, b *ssa.BasicBlock) bool {
	if s.Loop != nil {
		return s.Loop.Contains(b)
	}
	return b.Parent() == s.Fn
}
