package retryscope

import (
	"go/constant"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// A helperInfo is the one answer to "is this function a retry helper, and for which
// arguments?", whatever told the model: the built-in table of libraries, the
// -retryscope.helpers flag, inference in this package, or a fact from another package (as
// printf's isWrapper fact and callKind give one kind per function).
type helperInfo struct {
	params []int       // the retried function arguments (receiver excluded)
	entry  *helper     // the table's (or flag's) entry, which summarises a call from its options
	fact   *helperFact // the summary of an inferred or imported helper
}

// helperOf returns what the model knows of fn as a retry helper, or nil.
func (st *state) helperOf(fn *types.Func) *helperInfo {
	if fn == nil {
		return nil
	}
	if hs := st.helpers[flow.ID(fn)]; len(hs) > 0 {
		info := &helperInfo{entry: &hs[0]}
		if hs[0].arg >= 0 {
			info.params = []int{hs[0].arg}
		}
		return info
	}
	if f := st.local[fn]; f != nil {
		return &helperInfo{params: f.Params, fact: f}
	}
	if fn.Pkg() != nil && fn.Pkg() != st.pass.Pkg {
		var f helperFact
		if st.pass.ImportObjectFact(fn, &f) {
			return &helperInfo{params: f.Params, fact: &f}
		}
	}
	return nil
}

// A helperCall is one call of a retry helper that retries something.
type helperCall struct {
	*helperInfo
	fn      *types.Func
	call    ssa.CallInstruction
	site    *site
	retried []ssa.Value // the retried function values, unwrapped
}

// helperCall returns the call as a call of a retry helper, or nil: not a helper, a library
// call that does not retry as configured (failsafe-go without a retry policy), or a nil
// function to retry.
func (st *state) helperCall(call ssa.CallInstruction) *helperCall {
	fn := flow.Callee(call.Common())
	info := st.helperOf(fn)
	if info == nil || call.Common().StaticCallee() == call.Parent() {
		return nil // not a helper, or a retrying helper's recursive call: its own next attempt
	}
	hc := &helperCall{helperInfo: info, fn: fn, call: call, site: st.newSite(call, fn)}
	if e := info.entry; e != nil && e.lib != nil && e.lib.when != nil && !e.lib.when(hc.site, e.entry) {
		return nil
	}
	for _, i := range info.params {
		a := hc.site.Arg(i)
		if a == nil || flow.IsNil(flow.Unwrap(a)) {
			return nil // nothing to retry
		}
		hc.retried = append(hc.retried, flow.Unwrap(a))
	}
	if e := info.entry; e != nil && e.entry != nil && e.entry.Field != "" {
		// The function is a field of the receiver (StateChangeConf.Refresh), when the struct
		// is built in view; a scope without a known body otherwise.
		if f := fieldStores(hc.site.origins(hc.site.Recv)...)[e.entry.Field]; f != nil {
			hc.retried = append(hc.retried, flow.Unwrap(f))
		}
	}
	return hc
}

// callbackScope returns the Callback scope of a helper call: its summary, from the library's
// options or the helper's fact, and the first retried function whose body is known.
func (st *state) callbackScope(hc *helperCall) *Scope {
	s := &Scope{Kind: Callback, Func: hc.fn, Helper: helperName(hc.fn)}
	if hc.entry != nil {
		hc.entry.summarise(hc.site, s)
	} else {
		s.Attempts, s.Wait.Kind, s.Deadline = hc.fact.Attempts, hc.fact.Wait, hc.fact.Deadline
		s.Inferred, s.turnedAway, s.helperOn = true, hc.fact.TurnedAway, hc.fact.On
		s.helperStops, s.helperMarks, s.helperNamed = hc.fact.Stops, hc.fact.Marks, hc.fact.Named
		s.CallersJudge = hc.fact.CallersJudge
		handedVerdict(hc, s) // the predicate the call hands in says what goes round
		if handedRefusal(hc) {
			s.turnedAway = true // runWithRetry(op, entityBusy, d): only a refused attempt goes round
		}
	}
	i := slices.IndexFunc(hc.retried, func(v ssa.Value) bool { return callbackFunc(v) != nil })
	if i < 0 {
		return s
	}
	cb := callbackFunc(hc.retried[i])
	s.Fn = cb
	if syn := flow.Syntax(cb); syn != nil {
		s.Body, s.From, s.To = syn, syn.Pos(), syn.End()
	}
	s.Calls = slices.Collect(flow.Calls(cb))
	if s.Deadline == DeadlineNone {
		s.Deadline = observesDeadline(s.Calls)
	}
	st.setWaits(s)
	return s
}

// setWaits judges the waits the callback of s sets for the next attempt (roko's
// rt.SetNextInterval(d): knowledge.WaitSetters) with the strategy's: the weakest of them, or theirs
// alone when the strategy waits nothing by itself (roko.Constant(0), a placeholder). Each is
// a Setting of s, the last deciding its wait.
func (st *state) setWaits(s *Scope) {
	var ss []Sleep
	for _, c := range s.Calls {
		id := flow.ID(flow.Callee(c.Common()))
		i, ok := knowledge.WaitSetters[id]
		if !ok || i >= len(c.Common().Args) {
			continue
		}
		d := c.Common().Args[i]
		ss = append(ss, Sleep{Call: c, Duration: d, Kind: st.delayKind(d, nil)})
		// The setting that decides the wait now (not the strategy, whose jitter option would
		// not reach it).
		s.Settings = append(s.Settings, Setting{Name: id.Recv + "." + id.Name, Pos: c.Pos(), Value: d, Wait: ss[len(ss)-1].Kind})
	}
	if len(ss) == 0 {
		return
	}
	if s.Wait.Kind != WaitNone {
		ss = append(ss, Sleep{Kind: s.Wait.Kind})
	}
	s.Wait.Kind = combineWaits(ss, 0)
}

// handedVerdict records on s, the Callback scope of helper call hc, what the predicate that hc
// hands in as its verdict (helperFact.Verdict) goes round on, when its body says
// (predicateSummary, predicateSentinels).
// handedRefusal reports whether the call hands its helper a regular expression, compiled from
// a constant, that names the server's own refusal ("is busy", no transport failure, 5xx or rate
// limit but a turn-away): the only errors the helper goes round on (helperFact.Matches).
func handedRefusal(hc *helperCall) bool {
	if hc.fact == nil || hc.fact.Matches == 0 {
		return false
	}
	a := hc.site.Arg(hc.fact.Matches - 1)
	if a == nil {
		return false
	}
	text, ok := flow.Unwrap(compiledFrom(a)).(*ssa.Const)
	if !ok || text.Value == nil || text.Value.Kind() != constant.String {
		return false
	}
	k := textKinds(text)
	return k == FailOther || k == Fail429
}

func handedVerdict(hc *helperCall, s *Scope) {
	if hc.fact == nil || hc.fact.Verdict == 0 {
		return
	}
	a := hc.site.Arg(hc.fact.Verdict - 1)
	if a == nil {
		return
	}
	fn := callbackFunc(flow.Unwrap(a))
	if fn == nil || len(fn.Params) != 1 || !typeis.ErrorLike(fn.Params[0].Type()) {
		return
	}
	if on, _, ok := predicateSummary(fn, 0, 0); ok && on != 0 {
		s.helperOn = on
	}
	named, refused := predicateNamed(fn, 0)
	s.helperNamed = named
	s.helperOnly, s.helperRefuses = sentinelVars(named, refused)
}
