package nojitter

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
	Name:     "nojitter",
	Doc:      docs.MustExtract(doc, "nojitter"),
	URL:      docs.URL("nojitter"),
	Requires: []*analysis.Analyzer{retryscope.Analyzer, remote.Analyzer, ssapkg.Analyzer, inspect.Analyzer},
	Run:      guard.Run("nojitter", run),
}

type checker struct {
	pass   *analysis.Pass
	res    *retryscope.Result
	remote *remote.Result
	rep    *report.Reporter
	calls  *syntax.Calls
	insp   *inspector.Inspector
	seen   map[token.Pos]bool         // client configurations already reported
	capped map[*retryscope.Scope]bool // scopes whose missing cap the wait finding already named
	waits  map[token.Pos]bool         // waits reported by checkSleeps: a long-running loop around a retry loop goes round through its wait
	// viaHelper holds, for a function of the package whose wait several scopes make by
	// calling it (a shared error handler that backs off), the one finding about that wait.
	viaHelper map[*ssa.Function]*analysis.Diagnostic
	helpers   []*ssa.Function      // viaHelper's keys, in the order first met
	judged    map[*types.Func]bool // helpers judged by their callers (Scope.CallersJudge) already reported here
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
	if len(res.Scopes) == 0 && len(res.IteratorLoops) == 0 && len(res.Lifecycles) == 0 && len(res.Requeues) == 0 && !res.CallsRetrying() || testcode.Package(pass) {
		return nil, nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{
		pass:      pass,
		res:       res,
		remote:    pass.ResultOf[remote.Analyzer].(*remote.Result),
		rep:       report.New(pass, "nojitter"),
		calls:     syntax.NewCalls(insp),
		insp:      insp,
		seen:      make(map[token.Pos]bool),
		capped:    make(map[*retryscope.Scope]bool),
		waits:     make(map[token.Pos]bool),
		viaHelper: make(map[*ssa.Function]*analysis.Diagnostic),
		judged:    make(map[*types.Func]bool),
	}
	for _, s := range append(res.Scopes, res.IteratorLoops...) {
		switch {
		case s.Kind.FromFramework():
			continue // the framework's retry policy, not the code's (see Scope.Framework)
		case s.Reach == remote.ReachLocal || c.localOnly(s):
			continue // a local retry (a lock file, an OS call), or waiting for a process on this machine
		case testcode.At(pass, s.Pos()):
			continue // tests wait as they please
		case (s.Kind == retryscope.Callback || s.Kind == retryscope.Client) && s.Func != nil && s.Func.Pkg() == pass.Pkg:
			continue // the library's own defaults, in the library
		case s.Kind == retryscope.Iterator:
			// The iterator's waits are reported where its loop is written (IteratorLoops);
			// its bounds here, where the body may check a context or stop.
			c.checkCap(s)
			c.checkDeadline(s)
			continue
		case s.Iterates:
			c.checkWait(s)
			continue
		case s.CallersJudge && !s.Inferred:
			continue // a helper whose attempts are its callers' callbacks: judged where one is handed in
		case s.CallersJudge && s.Kind == retryscope.Callback:
			// A call that hands such a helper a callback: its wait, once per helper, when the
			// callback reaches a remote call.
			if s.Reach == remote.ReachRemote && !c.judged[s.Func] {
				c.judged[s.Func] = true
				c.checkWait(s)
			}
			continue
		case s.Kind == retryscope.Callback && s.Inferred && s.Func != nil && s.Func.Pkg() != nil && remote.OtherModule(pass.Module, s.Func.Pkg().Path()):
			// A helper of another module (a dependency's retry function): the call is the
			// only line this module can change. Only a fixed sleep, the one thing its fact is
			// sure of (a database driver's transaction retry that restarts at once on a
			// serialization conflict is that library's protocol).
			if s.Wait.Kind == retryscope.WaitFixed {
				c.checkWait(s)
			}
			continue
		case s.Kind == retryscope.Callback && s.Inferred:
			continue // reported inside the helper, where its loop is written
		case handWritten(s) && c.endlessInside(s):
			continue // the layer inside never gives up: its own finding is the one cause
		case s.Kind == retryscope.Client:
			if !c.dropsContext(s) {
				c.checkDeadline(s) // each call's request carries its own context
			}
			at := c.configuredAt(s)
			if c.seen[at] {
				continue
			}
			c.seen[at] = true
			c.checkWait(s)
			c.checkCap(s)
			continue
		}
		c.checkWait(s)
		c.checkCap(s)
		c.checkDeadline(s)
	}
	// Long-running loops (they stop when told to, by design) that reconnect or resubscribe
	// after a failure: only how they wait before trying again.
	for _, s := range res.Lifecycles {
		if s.Reach != remote.ReachLocal && !c.localOnly(s) && !testcode.At(pass, s.Pos()) {
			c.checkSleeps(s)
			c.checkReconnect(s)
		}
	}
	for _, rq := range res.Requeues {
		c.checkRequeue(rq)
	}
	c.checkForever()
	for _, fn := range c.helpers {
		c.rep.Report(*c.viaHelper[fn])
	}
	return nil, nil
}

// checkReconnect reports a long-running loop that goes round at once after its remote call
// failed: with the dependency down, each round fails at once and the loop spins, dialling or
// resubscribing as fast as it can. Not when it waits on every way round (a ticker), when a
// call in it retries with waits of its own (a client that backs off), or when its attempt may
// stay in the process.
func (c *checker) checkReconnect(s *retryscope.Scope) {
	if s.Wait.Kind != retryscope.WaitNone || s.Reach != remote.ReachRemote {
		return
	}
	for _, call := range s.Calls {
		if inner, fact := c.res.Reached(call); inner != nil || fact != nil && !fact.Local {
			return // a layer inside retries, and waits as it does
		}
	}
	c.rep.Report(analysis.Diagnostic{Pos: s.Pos(), Related: c.related(s), Message: report.Fit(
		fmt.Sprintf("%s goes round at once when its remote call fails, so it spins against a failing dependency; wait with jitter", c.name(s)),
		fmt.Sprintf("%s goes round at once when its remote call fails: it spins against a failing dependency", c.name(s)))})
}

// checkRequeue reports a failed delivery handed back to be delivered again at once: the
// framework's redelivery is the retry, and nothing paces it.
func (c *checker) checkRequeue(rq *retryscope.Requeue) {
	if testcode.At(c.pass, rq.Call.Pos()) {
		return
	}
	hint, what := "dead-letter it", "delivery requeued"
	if rq.Later != "" {
		hint, what = "use "+rq.Later, "message handed back"
	}
	c.rep.Report(analysis.Diagnostic{Pos: c.start(rq.Call.Pos()), Message: report.Fit(
		fmt.Sprintf("failed %s at once: %s redelivers it with no pause, looping while it fails; %s", what, rq.Framework, hint),
		fmt.Sprintf("failed %s at once: %s redelivers it with no pause; %s", what, rq.Framework, hint))})
}

// answersOnly reports whether the hand-written scope s waits for a state: it goes round only
// on answers of the dependency that say it is up and the state not reached yet (a 404, a 409
// "authorization pending", a 401 that re-authenticates), none of the failures that a herd of
// clients retrying in step makes worse (transport errors, 5xx, 429, what the model cannot
// read), and time ends it, not a count. A loop that counts its rounds on a 409 is contending
// for a resource with other clients, and jitter is what spreads them.
func answersOnly(s *retryscope.Scope) bool {
	if !handWritten(s) || s.Decisive == nil || s.Deadline == retryscope.DeadlineNone ||
		s.Attempts.Kind != retryscope.BoundNone && s.Attempts.Kind != retryscope.BoundUnknown {
		return false
	}
	on := s.RetriesOn(s.Decisive)
	return on != 0 && on&^(retryscope.FailNotFound|retryscope.FailAuth|retryscope.FailPending) == 0
}

// endlessInside reports whether the hand-written scope s goes round a retry layer that never
// gives up (retryscope.Result.Paced): s sees only what that layer hands back at once.
func (c *checker) endlessInside(s *retryscope.Scope) bool {
	_, endless := c.res.Paced(s)
	return endless
}

// handWritten reports whether the scope's loop is written in this package's code (its waits
// and header are where a change goes).
func handWritten(s *retryscope.Scope) bool { return s.Kind.HandWritten() }

// checkWait reports a wait between attempts that is not randomised, or no wait at all.
func (c *checker) checkWait(s *retryscope.Scope) {
	if s.Attempts.Kind == retryscope.BoundConst && s.Attempts.N <= 1 {
		return // one attempt (a client literal without RetryMax): nothing is sent again
	}
	if s.Poll {
		return // a poll waits for a condition; its interval need not be jittered
	}
	if answersOnly(s) {
		return // it goes round only on answers (a 409 "pending"): the dependency is up
	}
	if s.WaitsByPolicy() {
		return // the library's own waits, which no setting can randomise (the Terraform SDK's)
	}
	if handWritten(s) {
		if s.Wait.Kind == retryscope.WaitNone && s.Wait.Unset != "" {
			c.rep.Report(analysis.Diagnostic{Pos: s.Pos(), Related: c.related(s), Message: report.Fit(
				fmt.Sprintf("%s waits only if %s is set (nil by default), so it hammers a failing dependency; add a default wait", c.name(s), s.Wait.Unset),
				fmt.Sprintf("%s waits only if %s is set, nil by default; add a default wait", c.name(s), s.Wait.Unset))})
			return
		}
		if s.Wait.Kind == retryscope.WaitNone {
			if paced, _ := c.res.Paced(s); paced && !s.KeepsGoing {
				return // the retry layer it calls waits between the calls (the layers multiply: nestedretry's)
			}
			if s.Failover && s.Attempts.Kind != retryscope.BoundNone {
				return // each round tries another target, as many as there are
			}
			if s.Answered && s.Attempts.Kind == retryscope.BoundConst {
				return // a few rounds, each after the dependency answered: it is up, not failing
			}
			c.reportNoWait(s, s.Pos(), "goes round")
			return
		}
		if s.Wait.Bypass.IsValid() {
			// Another way round waits; this one goes straight back to the attempt.
			c.rep.Report(analysis.Diagnostic{Pos: s.Pos(),
				Related: append(c.related(s), analysis.RelatedInformation{Pos: s.Wait.Bypass, Message: "goes round here without waiting"}),
				Message: report.Fit(
					fmt.Sprintf("%s goes round without waiting after some failures, so it hammers a failing dependency; wait with jitter on that way round too", c.name(s)),
					fmt.Sprintf("%s goes round without waiting after some failures: it hammers a failing dependency", c.name(s)))})
		}
		c.checkSleeps(s)
		return
	}
	switch s.Wait.Kind {
	case retryscope.WaitFixed, retryscope.WaitBackoff:
		set := s.WaitSetting()
		for i, x := range append([]*retryscope.Setting{set}, c.twins(s, set)...) {
			pos := c.settingPos(s, x)
			if i > 0 {
				pos = c.start(x.Pos)
			}
			d := analysis.Diagnostic{Pos: pos, Message: c.waitMessage(c.name(s), retryscope.Sleep{Kind: s.Wait.Kind}), Related: c.related(s)}
			if fix, ok := c.libraryFix(x); ok {
				d.SuggestedFixes = []analysis.SuggestedFix{fix}
			}
			c.rep.Report(d)
		}
	case retryscope.WaitNone:
		c.reportNoWait(s, c.settingPos(s, s.WaitSetting()), "retries")
	}
}

// twins returns the settings like the one that configured a client scope's wait (set, or
// where the client is made when the library's default decided it) made elsewhere, when the
// scope's client comes from several places (two constructors store theirs into one field):
// each is a line to change. None when another setting has a say in the wait: the merged
// settings of different clients say nothing of either.
func (c *checker) twins(s *retryscope.Scope, set *retryscope.Setting) []*retryscope.Setting {
	anchor := set
	if s.Kind != retryscope.Client || s.SwitchedOff {
		return nil // (one of them switched off: not twins)
	}
	if anchor == nil {
		at := s.MadeAt()
		for i := range s.Settings {
			if s.Settings[i].Pos == at {
				anchor = &s.Settings[i]
			}
		}
	}
	if anchor == nil || !anchor.Pos.IsValid() {
		return nil
	}
	var out []*retryscope.Setting
	for i := range s.Settings {
		x := &s.Settings[i]
		switch {
		case x.Pos == anchor.Pos || !x.Pos.IsValid():
		case x.Wait != anchor.Wait && x.Wait != retryscope.WaitUnknown:
			return nil // another setting has a say in the wait
		case x.Name == anchor.Name && x.Wait == anchor.Wait && !c.seen[x.Pos]:
			out = append(out, x)
		}
	}
	for _, x := range out {
		c.seen[x.Pos] = true
	}
	return out
}

// reportNoWait reports a scope that goes round without waiting. When nothing bounds it either
// and both findings would stand at one place, they are one finding: one loop, one change.
func (c *checker) reportNoWait(s *retryscope.Scope, pos token.Pos, verb string) {
	who := c.name(s)
	if ctx := contextInReach(s.Holder()); c.unbounded(s) && c.capPos(s) == pos && s.KeepsGoing && ctx != "" {
		c.capped[s] = true
		c.rep.Report(analysis.Diagnostic{Pos: pos, Related: c.related(s), Message: report.Fit(
			fmt.Sprintf("%s %s without waiting on every failure, so once %s is done it spins for ever; wait with jitter and leave when %s.Err() is set", who, verb, ctx, ctx),
			fmt.Sprintf("%s %s without waiting on every failure: once %s is done it spins for ever", who, verb, ctx))})
		return
	}
	if c.unbounded(s) && c.capPos(s) == pos {
		c.capped[s] = true
		hint := "wait with jitter and " + capHint(s)
		c.rep.Report(analysis.Diagnostic{Pos: pos, Related: c.related(s), Message: report.Fit(
			fmt.Sprintf("%s %s without waiting and never stops (no cap, no deadline), so it hammers a failing dependency; %s", who, verb, hint),
			fmt.Sprintf("%s %s without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap", who, verb),
			fmt.Sprintf("%s %s without waiting and never stops: it hammers a failing dependency", who, verb))})
		return
	}
	c.report(pos, s, "%s %s without waiting, so it hammers a failing dependency; wait with jitter", who, verb)
}

// unbounded reports whether nothing bounds the scope: no attempt count, no time limit, no context.
func (c *checker) unbounded(s *retryscope.Scope) bool {
	return s.Attempts.Kind == retryscope.BoundNone && s.Deadline == retryscope.DeadlineNone
}

// capPos is where a missing cap is reported: the loop, or the setting that would bound it.
func (c *checker) capPos(s *retryscope.Scope) token.Pos {
	if handWritten(s) {
		return s.Pos()
	}
	return c.settingPos(s, s.AttemptsSetting())
}

// checkSleeps reports the waits of a hand-written scope that are not randomised: one finding
// per scope, at the first such wait (with its fix), the others among its related positions.
func (c *checker) checkSleeps(s *retryscope.Scope) {
	for _, sl := range s.Wait.Sleeps {
		if sl.Kind == retryscope.WaitJittered && !sl.AfterSuccess && s.EveryRound(sl) {
			return // a jittered wait on every way round spreads the attempts, whatever else waits
		}
	}
	var d *analysis.Diagnostic
	sleeps := slices.Clone(s.Wait.Sleeps)
	slices.SortStableFunc(sleeps, func(a, b retryscope.Sleep) int { return cmp.Compare(a.Call.Pos(), b.Call.Pos()) })
	for _, sl := range sleeps {
		if sl.Kind != retryscope.WaitFixed && sl.Kind != retryscope.WaitBackoff || sl.AfterSuccess || sl.AfterLocal {
			continue // jittered, unknown, a poll's wait for a state after a success, or after a local failure
		}
		pos := sl.Call.Pos()
		if cur, ok := c.calls.At(pos); ok {
			pos = cur.Node().Pos()
		}
		if d != nil {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: pos, Message: "also waits without jitter"})
			continue
		}
		d = &analysis.Diagnostic{Pos: pos, Message: c.waitMessage(c.name(s), sl), Related: c.related(s)}
		if fix, ok := c.wrapSleep(sl); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	if d == nil {
		return
	}
	// A wait made inside a helper of the package that other scopes call too is one cause:
	// one finding, at the first scope's call, with the others beside it.
	if h := c.waitingHelper(sleeps, d.Pos); h != nil && len(d.Related) == len(c.related(s)) {
		// (Only when the helper's is the scope's one unjittered wait: a scope that also
		// waits on its own keeps its finding.)
		if first := c.viaHelper[h]; first != nil {
			first.Related = append(first.Related, analysis.RelatedInformation{Pos: d.Pos, Message: "also waits through " + h.Name()})
			return
		}
		c.viaHelper[h] = d
		c.helpers = append(c.helpers, h)
		return
	}
	if c.waits[d.Pos] {
		return // the same wait, already reported for the retry loop it belongs to
	}
	c.waits[d.Pos] = true
	c.rep.Report(*d)
}

// waitingHelper returns the function of the package that the wait reported at pos calls,
// when the wait is made inside it for a length it chooses itself; nil when the wait is the
// scope's own, or the scope hands the helper its length (sleep(ctx, backoff(attempt)): each
// scope decides how long it waits).
func (c *checker) waitingHelper(sleeps []retryscope.Sleep, pos token.Pos) *ssa.Function {
	for _, sl := range sleeps {
		at := sl.Call.Pos()
		if cur, ok := c.calls.At(at); ok {
			at = cur.Node().Pos()
		}
		if at != pos {
			continue
		}
		if fn := sl.Call.Common().StaticCallee(); sl.Duration == nil && fn != nil && fn.Pkg != nil && fn.Pkg.Pkg == c.pass.Pkg && len(fn.Blocks) > 0 {
			return c.res.WaitHolder(fn)
		}
		return nil
	}
	return nil
}

func (c *checker) waitMessage(who string, sl retryscope.Sleep) string {
	if sl.Kind == retryscope.WaitBackoff {
		return report.Fit(
			fmt.Sprintf("%s backs off without jitter, so clients that failed together retry together, in waves; add jitter", who),
			fmt.Sprintf("%s backs off without jitter: clients that failed together retry in waves; add jitter", who))
	}
	wait := "a fixed delay"
	if n, ok := sl.Length(); ok { // the map's figure for the wait too
		wait = "a fixed " + n.String()
	}
	return report.Fit(
		fmt.Sprintf("%s waits %s between attempts, so clients that failed together retry together; add jitter", who, wait),
		fmt.Sprintf("%s waits %s: clients that failed together retry together; add jitter", who, wait))
}

// checkCap reports a scope that nothing bounds: no attempt count, no time limit, no context.
func (c *checker) checkCap(s *retryscope.Scope) {
	pos := c.capPos(s)
	who, hint := c.name(s), capHint(s)
	if s.UntilContext && s.Kind == retryscope.Callback && !c.capped[s] {
		// A retry helper set to go on for ever: a context ends it only if its creator set a
		// deadline. (A self-retrying client's retries are per request, each bounded as notimeout
		// sees it.)
		c.rep.Report(analysis.Diagnostic{Pos: pos, Related: c.related(s), Message: report.Fit(
			fmt.Sprintf("%s has no attempt cap, so it retries until its context ends, for ever if that has no deadline; %s", who, hint),
			fmt.Sprintf("%s has no attempt cap: it retries until its context ends; %s", who, hint),
			fmt.Sprintf("%s has no attempt cap: it retries until its context ends", who))})
		return
	}
	if !c.unbounded(s) || c.capped[s] {
		return
	}
	if ctx := contextInReach(s.Holder()); s.KeepsGoing && ctx != "" {
		c.rep.Report(analysis.Diagnostic{Pos: pos, Related: c.related(s), Message: report.Fit(
			fmt.Sprintf("%s goes round on every failure, so once %s is done it retries for ever; leave when %s.Err() is set, and cap the attempts", who, ctx, ctx),
			fmt.Sprintf("%s goes round on every failure: once %s is done it retries for ever; leave when %s.Err() is set", who, ctx, ctx),
			fmt.Sprintf("%s goes round on every failure: once %s is done it retries for ever", who, ctx))})
		return
	}
	if ctx := c.foreverIgnoring(s); ctx != "" {
		// No cap, and a context at hand that it ignores: one finding says both.
		c.rep.Report(analysis.Diagnostic{Pos: pos, Related: c.related(s), Message: report.Fit(
			fmt.Sprintf("%s has no attempt cap and ignores %s, so it retries for ever while the dependency is down; %s", who, ctx, deadlineHint(s, ctx)),
			fmt.Sprintf("%s has no attempt cap and ignores %s: it retries for ever; %s", who, ctx, deadlineHint(s, ctx)),
			fmt.Sprintf("%s retries for ever: no attempt cap, and it ignores %s", who, ctx))})
		return
	}
	c.rep.Report(analysis.Diagnostic{Pos: pos, Related: c.related(s), Message: report.Fit(
		fmt.Sprintf("%s has no attempt cap and no deadline, so it retries for ever while the dependency is down; %s", who, hint),
		fmt.Sprintf("%s retries for ever (no attempt cap, no deadline); %s", who, hint),
		fmt.Sprintf("%s retries for ever: no attempt cap, no deadline", who))})
}

// dropsContext reports whether the self-retrying client call of scope s is a remote call
// that nothing bounds and that is given a context of its own making (context.Background()):
// with the caller's context at hand, notimeout reports that call ("pass ctx, not
// context.Background()"), the same cause and the same change, so this check does not say it
// again.
func (c *checker) dropsContext(s *retryscope.Scope) bool {
	if s.Site == nil {
		return false
	}
	rc := c.remote.Of(s.Site)
	if rc == nil || rc.Timeout.Status != remote.Unbounded {
		return false
	}
	k := rc.Timeout.Context.Kind
	return k == remote.Background || k == remote.TODO
}

// foreverIgnoring returns the context at hand that scope s ignores when s also has no
// attempt cap (checkCap reports both at once), or "".
func (c *checker) foreverIgnoring(s *retryscope.Scope) string {
	if s.Deadline != retryscope.DeadlineNone || s.Kind == retryscope.Client || s.KeepsGoing || s.UntilContext || brief(s) || c.capped[s] || !c.unbounded(s) {
		return ""
	}
	return contextInReach(s.Holder())
}

// checkDeadline reports a scope that ignores the context at hand.
func (c *checker) checkDeadline(s *retryscope.Scope) {
	if s.Deadline != retryscope.DeadlineNone || c.foreverIgnoring(s) != "" {
		return // (checkCap's finding says it, with the missing cap)
	}
	ctx := contextInReach(s.Holder())
	if ctx == "" || brief(s) || c.capped[s] || s.KeepsGoing && s.Attempts.Kind == retryscope.BoundNone {
		return // (a loop that keeps going: checkCap's finding says it)
	}
	who, hint := c.name(s), deadlineHint(s, ctx)
	c.rep.Report(analysis.Diagnostic{Pos: s.Pos(), Related: c.related(s), Message: report.Fit(
		fmt.Sprintf("%s does not observe %s, so its retries outlive the caller's deadline; %s", who, ctx, hint),
		fmt.Sprintf("%s ignores %s, so its retries outlive the caller's deadline; %s", who, ctx, hint),
		fmt.Sprintf("%s ignores %s: its retries outlive the caller; pass %s on", who, ctx, ctx))})
}

// capHint says, in the scope's own terms, how to bound its attempts.
func capHint(s *retryscope.Scope) string {
	if hint, _ := s.LibraryHints(); hint != "" {
		return hint
	}
	switch s.Kind {
	case retryscope.Loop, retryscope.Goto:
		return "count the attempts and stop after a few"
	case retryscope.Recursion:
		return "pass down how many attempts are left"
	case retryscope.Iterator:
		return "count the attempts in the body and stop after a few"
	}
	return "cap the attempts"
}

// deadlineHint says, in the scope's own terms, how to make it observe the context named ctx.
func deadlineHint(s *retryscope.Scope, ctx string) string {
	if _, hint := s.LibraryHints(); hint != "" {
		return fmt.Sprintf(hint, ctx)
	}
	switch s.Kind {
	case retryscope.Loop, retryscope.Goto, retryscope.Recursion:
		return fmt.Sprintf("pass %s to the calls it repeats and stop when it is done", ctx)
	}
	return "pass " + ctx + " on"
}

// localOnly reports whether every call the scope repeats that leaves the process goes to this
// machine (a loopback address): such a loop waits for a local process, not for a dependency
// that clients share.
func (c *checker) localOnly(s *retryscope.Scope) bool {
	found := false
	for _, call := range s.Calls {
		if rc := c.remote.Of(call); rc != nil {
			if !rc.Loopback {
				return false
			}
			found = true
		}
	}
	return found
}

// brief reports whether the scope's waits certainly add up to little, so that it cannot keep
// its caller waiting for long: a known number of attempts, each followed by at most a known
// constant wait, under a second in all, or a library configuration known to be brief.
func brief(s *retryscope.Scope) bool {
	if s.Brief {
		return true
	}
	if !handWritten(s) || s.Attempts.Kind != retryscope.BoundConst {
		return false
	}
	var longest int64
	for _, sl := range s.Wait.Sleeps {
		n, ok := flow.IntConst(sl.Duration)
		if sl.Duration == nil || !ok {
			return false
		}
		longest = max(longest, n)
	}
	return int64(s.Attempts.N)*longest < int64(time.Second)
}

// contextInReach returns how the code of fn, or of the functions around it, names a context it
// was given: a context parameter or captured variable, or r.Context() of a request parameter.
func contextInReach(fn *ssa.Function) string {
	for f := fn; f != nil; f = f.Parent() {
		for _, p := range f.Params {
			if contextual(p.Type()) && p.Name() != "_" && p.Name() != "" {
				return p.Name()
			}
		}
		for _, fv := range f.FreeVars {
			// (a variable the closure shares is captured by its address)
			if box, shared := fv.Type().(*types.Pointer); contextual(fv.Type()) || shared && contextual(box.Elem()) {
				return fv.Name()
			}
		}
		for _, p := range f.Params {
			if typeis.Named(p.Type(), "net/http", "Request") && p.Name() != "_" && p.Name() != "" {
				return p.Name() + ".Context()"
			}
		}
	}
	return ""
}

// contextual reports whether a value of type t is a context: a context.Context, or a type that
// embeds one (a request's own context type).
func contextual(t types.Type) bool { return typeis.Context(t) || typeis.EmbedsContext(t) }

// name is how a message names the scope.
func (c *checker) name(s *retryscope.Scope) string {
	if s.Lifecycle {
		return "long-running loop"
	}
	switch s.Kind {
	case retryscope.Loop:
		if s.Iterates {
			return "retry iterator"
		}
		return "retry loop"
	case retryscope.Goto:
		return "goto retry loop"
	case retryscope.Recursion:
		return "retrying function " + s.FuncName()
	case retryscope.Iterator:
		if s.Func != nil {
			return "loop over " + flow.Name(s.Func, c.pass.Pkg)
		}
		return "loop over a retry iterator"
	case retryscope.Client:
		if s.Through != "" {
			return s.Through
		}
		if sig, ok := s.Func.Type().(*types.Signature); ok && sig.Recv() != nil {
			return s.Func.Pkg().Name() + "." + flow.ID(s.Func).Recv
		}
		return flow.Name(s.Func, nil) + "'s client"
	}
	if s.Func == nil {
		return s.Kind.String()
	}
	if sig, ok := s.Func.Type().(*types.Signature); ok && sig.Recv() != nil && s.Func.Pkg() != c.pass.Pkg {
		return s.Func.Pkg().Name() + "." + flow.Name(s.Func, nil) // failsafe.Executor.Run
	}
	return flow.Name(s.Func, c.pass.Pkg)
}

// configuredAt is where a client scope's configuration is: the setting that decided its wait,
// its first setting (the constructor), or the call.
func (c *checker) configuredAt(s *retryscope.Scope) token.Pos {
	if set := s.WaitSetting(); set != nil && set.Pos.IsValid() {
		return set.Pos
	}
	if at := s.MadeAt(); at.IsValid() {
		return at
	}
	return s.Pos()
}

// settingPos is where to report a library scope's finding: at the setting that decided it,
// where a client is made, or at the call.
func (c *checker) settingPos(s *retryscope.Scope, set *retryscope.Setting) token.Pos {
	if s.Kind == retryscope.Client {
		return c.start(c.configuredAt(s))
	}
	if set != nil && set.Pos.IsValid() {
		return c.start(set.Pos)
	}
	return s.Pos()
}

// start maps a call's Lparen (where SSA puts a call) to the start of the call expression.
func (c *checker) start(pos token.Pos) token.Pos {
	if cur, ok := c.calls.At(pos); ok {
		return cur.Node().Pos()
	}
	return pos
}

func (c *checker) report(pos token.Pos, s *retryscope.Scope, format string, args ...any) {
	c.rep.Report(analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...), Related: c.related(s)})
}

// related points at the scope when the diagnostic is elsewhere.
func (c *checker) related(s *retryscope.Scope) []analysis.RelatedInformation {
	if p := s.Pos(); p.IsValid() {
		r := analysis.RelatedInformation{Pos: p, Message: s.Kind.String()}
		switch {
		case s.Lifecycle:
			r.Message = "long-running loop"
		case s.Handed:
			r.Message = "handed to " + flow.Name(flow.Callee(s.Site.Common()), c.pass.Pkg) + " here"
		}
		if s.Node != nil {
			r.End = s.Node.End()
		}
		return []analysis.RelatedInformation{r}
	}
	return nil
}
