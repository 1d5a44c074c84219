package nestedretry

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"

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
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "nestedretry",
	Doc:      docs.MustExtract(doc, "nestedretry"),
	URL:      docs.URL("nestedretry"),
	Requires: []*analysis.Analyzer{retryscope.Analyzer, ssapkg.Analyzer, inspect.Analyzer},
	Run:      guard.Run("nestedretry", run),
}

type checker struct {
	pass  *analysis.Pass
	res   *retryscope.Result
	rep   *report.Reporter
	calls *syntax.Calls
	seen  map[token.Pos]bool
}

// An inner layer: a scope of this package, or what a fact tells of another package's
// function; entered at pos.
type layer struct {
	name     string
	attempts retryscope.Bound
	scope    *retryscope.Scope // nil when known through a fact
	pos      token.Pos
	on       retryscope.Failures     // what it retries
	named    []retryscope.NamedError // the errors it alone retries, by name; nil when not known
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
	if testcode.Package(pass) {
		return nil, nil
	}
	c := &checker{
		pass:  pass,
		res:   res,
		rep:   report.New(pass, "nestedretry"),
		calls: syntax.NewCalls(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)),
		seen:  make(map[token.Pos]bool),
	}
	sites := make(map[ssa.CallInstruction]bool)
	for _, s := range res.Scopes {
		if s.Site != nil {
			sites[s.Site] = true
		}
	}
	// Scopes of this package inside another scope.
	for _, s := range res.Scopes {
		if s.Kind.FromFramework() || s.Poll || s.Reach == remote.ReachLocal || s.Handed || s.SwitchedOff {
			continue // the framework's; a poll for a state, whose errors end it; a local retry; a client handed away; one the program turns off in some configuration
		}
		anchor, pos := c.anchor(s)
		if anchor == nil {
			continue
		}
		c.check(anchor, nil, layer{name: c.name(s), attempts: s.Attempts, scope: s, pos: pos, on: s.RetrySet(), named: s.NamedSet()})
	}
	// Calls, inside a scope, of functions that retry.
	for _, fn := range pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).SrcFuncs {
		for call := range flow.Calls(fn) {
			callee := call.Common().StaticCallee()
			if g, ok := call.(*ssa.Go); ok && !flow.Awaited(g) || sites[call] || callee == fn {
				continue // started apart, not waited for; a scope of its own (above); a retrying function's recursion
			}
			inner, fact := res.Reached(call)
			var l layer
			switch {
			case inner != nil && (inner.Poll || inner.Reach == remote.ReachLocal || inner.Failover && inner.Attempts.Kind != retryscope.BoundNone):
				continue // a poll, a local retry, or a walk over targets (each round another connection)
			case inner != nil && inner.SwitchedOff, fact != nil && fact.SwitchedOff:
				continue // turned off in some configuration: the program chooses its layer
			case inner != nil && inner.OnceWith(call):
				continue // reconnect(ctx, true): the argument makes its loop one attempt
			case inner != nil:
				l = layer{name: c.callName(call), attempts: inner.Attempts, scope: inner, on: inner.RetrySet(), named: inner.NamedSet()}
			case fact != nil && (fact.Local || fact.Kept):
				continue // it retries something local (a lock file), or keeps the failure: no remote call multiplies
			case fact != nil && !res.Configures(fact):
				continue // its attempts come from a setting that defaults to zero, which nothing here sets
			case fact != nil:
				l = layer{name: c.callName(call), attempts: fact.Attempts, on: fact.On, named: fact.Named}
			default:
				continue
			}
			l.pos = c.start(call.Pos())
			c.check(call, callee, l)
		}
	}
	// Values handed to another package's retry scope whose methods retry on their own.
	for _, w := range res.Wired {
		c.reportWired(w)
	}
	return nil, nil
}

// reportWired reports a value handed to another package's retry layer (a driver to the
// portable package that retries its calls) whose method retries on its own, at the call or
// store that hands it over: the line that wires the two layers together.
func (c *checker) reportWired(w *retryscope.Wired) {
	if c.seen[w.Pos] || testcode.At(c.pass, w.Pos) {
		return
	}
	inner := retryscope.Bound{Kind: retryscope.BoundUnknown}
	var related []analysis.RelatedInformation
	switch {
	case w.Inner != nil:
		inner = w.Inner.Attempts
		if p := w.Inner.Pos(); p.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: p, Message: "inner " + w.Inner.Kind.String()})
		}
	case w.Fact != nil:
		inner = w.Fact.Attempts
	}
	if inner.Kind == retryscope.BoundConst && inner.N <= 1 {
		return
	}
	c.seen[w.Pos] = true
	pos := w.Pos
	if cur, ok := c.calls.At(pos); ok {
		pos = cur.Node().Pos()
	}
	c.rep.Report(analysis.Diagnostic{Pos: pos, Related: related, Message: report.Fit(
		fmt.Sprintf("%s retries %s (%s), which retries on its own: the attempts multiply; keep one layer", w.Via, w.Method, w.Outer),
		fmt.Sprintf("%s retries %s, which retries on its own: the attempts multiply; keep one layer", w.Via, w.Method),
		fmt.Sprintf("%s retries %s, which retries on its own: the attempts multiply", w.Via, w.Method))})
}

// anchor returns the instruction where a scope is entered, to find the scopes around it, and
// the position to report.
func (c *checker) anchor(s *retryscope.Scope) (ssa.Instruction, token.Pos) {
	switch {
	case s.Site != nil:
		return s.Site, c.start(s.Site.Pos())
	case s.Loop != nil && len(s.Loop.Header.Instrs) > 0:
		return s.Loop.Header.Instrs[0], s.Pos()
	}
	return nil, token.NoPos // recursion: the function itself is the layer, entered by its callers
}

// check reports the layer when a retry scope around anchor repeats it.
func (c *checker) check(anchor ssa.Instruction, self *ssa.Function, inner layer) {
	if b := inner.attempts; b.Kind == retryscope.BoundConst && b.N <= 1 {
		return // switched off
	}
	if inner.attempts.Kind == retryscope.BoundNone && inner.scope != nil && c.ownLoop(inner.scope) {
		// A loop of the package without a cap (written here, or a helper of the package run
		// with a callback) never gives up on a failure it retries, so the outer layer never
		// sees one: it goes round only on what the inner loop returns at once (a conflict, a
		// refusal). Nothing multiplies; nojitter reports the missing cap. (A library's client
		// that retries until the context ends does give up, and is kept.)
		return
	}
	outer := c.outer(anchor, inner.scope, self)
	if outer == nil || c.seen[inner.pos] || testcode.At(c.pass, outer.Pos()) {
		return // tests retry on purpose, waiting for what they start
	}
	if call, ok := anchor.(ssa.CallInstruction); ok && inner.attempts.Kind == retryscope.BoundNone && !perAttempt(call, outer) {
		// A layer without a cap (a library client that retries until its context ends) gives
		// up on a failure it retries only when the context ends; the outer layer, going round
		// with the same context, then fails at once. Nothing multiplies unless each outer
		// attempt gets a context of its own that ends (context.WithTimeout in the loop).
		return
	}
	// Attempts multiply only for the failures both layers retry.
	on := retryscope.AnyFailure
	if call, ok := anchor.(ssa.CallInstruction); ok {
		on = outer.RetriesOn(call)
	}
	if inner.on != 0 {
		on &= inner.on
	}
	on &^= retryscope.FailAnswered // an answer the callee returned at once: nothing under it retried
	if call, ok := anchor.(ssa.CallInstruction); ok && on == retryscope.FailOther && !retryscope.NamesMeet(outer.NamedOn(call), inner.named) {
		on = 0 // both go round only on errors they name, not the same ones
	}
	if on == 0 {
		return // the outer layer goes round on what the inner one never retries (a 404, a held lock)
	}
	c.seen[inner.pos] = true
	related := []analysis.RelatedInformation{{Pos: outer.Pos(), Message: "outer " + outer.Kind.String()}}
	if inner.scope != nil && inner.scope.Pos().IsValid() && inner.scope.Pos() != inner.pos {
		related = append(related, analysis.RelatedInformation{Pos: inner.scope.Pos(), Message: "inner " + inner.scope.Kind.String()})
	}
	attempts := outer.CallCount() // no count but a time limit: not unbounded calls
	c.rep.Report(analysis.Diagnostic{Pos: inner.pos, Message: message(attempts, inner, on), Related: related})
}

// perAttempt reports whether call is given a context made inside the outer scope with a
// deadline of its own (context.WithTimeout or WithDeadline in the loop's body or the callback):
// each outer attempt then ends the inner layer's retries and starts them again.
func perAttempt(call ssa.CallInstruction, outer *retryscope.Scope) bool {
	for _, a := range call.Common().Args {
		if !typeis.Context(a.Type()) {
			continue
		}
		ex, ok := flow.Unwrap(a).(*ssa.Extract)
		if !ok {
			continue
		}
		made, ok := ex.Tuple.(*ssa.Call)
		if !ok {
			continue
		}
		if !remote.MakesDeadline(flow.ID(flow.Callee(made.Common()))) {
			continue
		}
		switch {
		case outer.Loop != nil:
			if outer.Loop.Contains(made.Block()) {
				return true
			}
		case outer.Fn != nil && made.Parent() == outer.Fn:
			return true // made in the callback each attempt runs
		}
	}
	return false
}

// ownLoop reports whether scope s is a loop written in this package: hand-written, or a
// helper of the package that runs its callback again (an inferred Callback scope).
func (c *checker) ownLoop(s *retryscope.Scope) bool {
	return s.Kind.HandWritten() || s.Kind == retryscope.Callback && s.Inferred && s.Func != nil && s.Func.Pkg() == c.pass.Pkg
}

// outer returns the nearest scope around anchor that retries on failure: not the inner scope
// itself, nor one whose code is the function the inner layer is (a retrying function's own
// scope), nor a poll or a scope with a single attempt.
func (c *checker) outer(anchor ssa.Instruction, inner *retryscope.Scope, self *ssa.Function) *retryscope.Scope {
	for _, s := range c.res.Enclosing(anchor) {
		switch {
		case s == inner, s.Kind == retryscope.Client:
			continue
		case s.Kind.FromFramework():
			return nil // a framework's redelivery around a call that retries: the framework's policy
		case self != nil && s.Fn == self:
			continue
		case !s.Multiplies():
			return nil // a poll, a local retry, a single attempt
		}
		if call, ok := anchor.(ssa.CallInstruction); ok && !s.RetriesFailureOf(call) {
			continue // the scope leaves when the inner layer fails: it repeats it, never retries it
		}
		if inner != nil && !inner.GivesUpInto(s) {
			continue // the inner loop comes back to it only on success: it resumes, never retries it
		}
		return s
	}
	return nil
}

func message(outer retryscope.Bound, inner layer, on retryscope.Failures) string {
	const tail = "; keep one layer"
	what := ""
	if on != retryscope.AnyFailure && on&^retryscope.FailOther != 0 {
		what = " on " + (on &^ retryscope.FailOther).String() // the failures that multiply
	}
	o, i, name := outer.N, inner.attempts.N, inner.name
	calls := retryscope.Product(outer, inner.attempts).N // the map's figure too
	switch {
	case outer.Kind == retryscope.BoundConst && inner.attempts.Kind == retryscope.BoundConst:
		return report.Fit(
			fmt.Sprintf("retries up to %d times around %s, which retries up to %d times: up to %d calls per request%s%s", o, name, i, calls, what, tail),
			fmt.Sprintf("retries up to %d times around %s, which retries up to %d times: up to %d calls%s%s", o, name, i, calls, what, tail),
			fmt.Sprintf("%d attempts around %s, which makes %d each: up to %d calls%s%s", o, name, i, calls, what, tail),
			fmt.Sprintf("%d attempts around %s, which makes %d each: up to %d calls%s", o, name, i, calls, tail))
	case inner.attempts.Kind == retryscope.BoundNone:
		return report.Fit(
			fmt.Sprintf("retries around %s, which retries with no attempt cap: unbounded calls per request%s%s", name, what, tail),
			fmt.Sprintf("retries around %s, which retries without a cap: unbounded calls%s%s", name, what, tail),
			fmt.Sprintf("retries around %s, which retries without a cap: unbounded calls%s", name, tail))
	case outer.Kind == retryscope.BoundNone:
		return report.Fit(
			fmt.Sprintf("retries with no attempt cap around %s, which retries too: unbounded calls per request%s%s", name, what, tail),
			fmt.Sprintf("retries without a cap around %s, which retries too: unbounded calls%s%s", name, what, tail),
			fmt.Sprintf("retries without a cap around %s, which retries too: unbounded calls%s", name, tail))
	case outer.Kind == retryscope.BoundConst:
		return report.Fit(
			fmt.Sprintf("retries up to %d times around %s, which retries too: attempts multiply%s%s", o, name, what, tail),
			fmt.Sprintf("retries up to %d times around %s, which retries too: attempts multiply%s", o, name, tail),
			fmt.Sprintf("%d attempts around %s, which retries too: attempts multiply%s", o, name, tail))
	case inner.attempts.Kind == retryscope.BoundConst:
		return report.Fit(
			fmt.Sprintf("retries around %s, which retries up to %d times: attempts multiply%s%s", name, i, what, tail),
			fmt.Sprintf("retries around %s, which makes %d attempts: attempts multiply%s%s", name, i, what, tail),
			fmt.Sprintf("retries around %s, which retries up to %d times: attempts multiply%s", name, i, tail))
	}
	return report.Fit(
		fmt.Sprintf("retries around %s, which retries too: attempts multiply%s%s", name, what, tail),
		fmt.Sprintf("retries around %s, which retries too%s", name, tail))
}

// name is how a message names an inner scope.
func (c *checker) name(s *retryscope.Scope) string {
	switch s.Kind {
	case retryscope.Loop:
		return "an inner retry loop"
	case retryscope.Goto:
		return "an inner goto retry loop"
	case retryscope.Iterator:
		return "a loop over a retry iterator"
	}
	return c.funcName(s.Func)
}

// callName names the function a call enters.
func (c *checker) callName(call ssa.CallInstruction) string {
	if fn := flow.Callee(call.Common()); fn != nil {
		return c.funcName(fn)
	}
	return "a retrying call"
}

// funcName names a function for a message: package-qualified when it is another package's
// method (retryablehttp.Client.Do).
func (c *checker) funcName(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return "a retrying call"
	}
	return flow.QualifiedName(fn, c.pass.Pkg)
}

// start maps a call's Lparen (where SSA puts a call) to the start of the call expression.
func (c *checker) start(pos token.Pos) token.Pos {
	if cur, ok := c.calls.At(pos); ok {
		return cur.Node().Pos()
	}
	return pos
}
