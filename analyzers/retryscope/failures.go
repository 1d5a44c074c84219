package retryscope

import (
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// Failures is a set of kinds of failure: what a retry layer goes round on. Attempts of two
// layers multiply only for the failures that both retry: an outer poll that goes round on a
// 404 ("not there yet") around a client that retries 5xx and transport errors sends one call
// per round, not the product.
type Failures uint16

const (
	FailTransport Failures = 1 << iota // the request did not complete: refused, reset, timed out
	Fail5xx                            // a 5xx answer
	Fail429                            // a 429 answer
	FailOther4xx                       // another 4xx answer (400, 403, 422)
	FailOther                          // an error the code names (a sentinel, a type): the program's own condition
	FailNotFound                       // a 404: not there yet
	FailAuth                           // a 401: credentials missing or refused, the request unprocessed
	// FailAnswered is an error of the program's own that the called function makes only
	// from an answer it got, and returns at once (answeredAtOnce): no layer under the call
	// retried it. Not part of AnyFailure: only a test that singles such an error out names it.
	FailAnswered
	// FailPending is a 409: the state the request needs is not reached yet (a device login
	// still pending, a resource still being made); the server is up and answered.
	FailPending
)

// AnyFailure is every kind: the layer goes round on any error (err != nil), or on what the
// model cannot read.
const AnyFailure = FailTransport | Fail5xx | Fail429 | FailOther4xx | FailOther | FailNotFound | FailAuth | FailPending

// Transient is what a self-retrying client retries: transport errors, 5xx and 429.
const Transient = FailTransport | Fail5xx | Fail429

// FailureKinds are the kinds of failure one by one, in the order messages name them.
var FailureKinds = []Failures{FailTransport, Fail5xx, Fail429, FailNotFound, FailAuth, FailPending, FailOther4xx, FailOther, FailAnswered}

var failureNames = map[Failures]string{
	FailTransport: "transport errors", Fail5xx: "5xx", Fail429: "429", FailNotFound: "404", FailAuth: "401", FailOther4xx: "4xx", FailPending: "409", FailOther: "its own errors",
	FailAnswered: "answers",
}

func (f Failures) String() string {
	switch f {
	case AnyFailure:
		return "any error"
	case Transient:
		return "transient failures"
	}
	var parts []string
	for _, k := range FailureKinds {
		if f&k != 0 {
			parts = append(parts, failureNames[k])
		}
	}
	return strings.Join(parts, ", ")
}

// RetriesOn says which failures of call make the scope go round: from each test of the
// call's outcome whose failure side goes round, what that test singles out (err != nil: any
// error; resp.StatusCode >= 500: 5xx; == 404: a 4xx; errors.Is(err, ErrLocked): the program's
// own error, unless it names a transport failure). AnyFailure when the scope is not
// hand-written, or does not test the call where the model follows it; none for a call the
// scope makes only on what its attempt answered, and for a recursion's own way back.
func (s *Scope) RetriesOn(call ssa.CallInstruction) Failures { return s.retriesOn(call, nil) }

// retriesOn is RetriesOn with the scope's callback span when the caller has it already.
func (s *Scope) retriesOn(call ssa.CallInstruction, cb *span) Failures {
	if s.Kind == Callback && s.helperOn != 0 && s.helperOn != AnyFailure {
		return s.helperOn // the helper's test of what the callback returns
	}
	if call != nil && wayBack(s, call) {
		// A retrying recursion's call of itself (joinSync and retryJoinSync calling each
		// other) is its next attempt, not a layer it retries around.
		return 0
	}
	in, round, ok := s.rounds()
	sp := roundsOf(s.Loop)
	if !ok {
		// A library's or helper's callback: it goes round where it returns an error its
		// helper retries (not one marked permanent).
		if cb == nil {
			cb = s.callbackSpan()
		}
		if sp = cb; sp != nil {
			in, round, ok = sp.contains, sp.canRepeat, true
		}
	}
	if !ok || call == nil || call.Parent() != s.Fn {
		return AnyFailure
	}
	if onAnswerOf(s.Decisive, call, in) {
		// msg, err := poll(); if err == nil { err = handle(msg) }: the next round polls anew,
		// and handles another answer; it does not do this call's work again.
		return 0
	}
	var on Failures
	tested := false
	for _, d := range decisions(s.Fn, in) {
		if d.call != call {
			continue
		}
		tested = true
		fail := d.block.Succs[1-d.success]
		if !round(fail) {
			continue
		}
		f := failuresOf(d)
		if f == AnyFailure {
			f = predicateSide(d, fail, sp, in) // a loop's or a callback's, or a recursion's (none)
		}
		if f == AnyFailure && sp != nil {
			f = narrowedFrom(fail, call, sp, in, AnyFailure)
		} else if f != 0 && sp != nil && f&^(Fail5xx|Fail429|FailOther4xx|FailNotFound|FailAuth|FailPending) == 0 {
			f = narrowedFrom(fail, call, sp, in, f) // statuses, which later tests may narrow
		}
		if f == AnyFailure && s.rem != nil {
			f = errorsOf(s.rem, call) // what the call's error can be
		}
		on |= f
	}
	if !tested {
		return AnyFailure
	}
	return on
}

// onAnswerOf reports whether call, another call than the attempt, runs only once the attempt
// succeeded (on the nil side of a test of its error) and works on what it returned.
func onAnswerOf(attempt, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool) bool {
	if attempt == nil || call == attempt || call.Block() == nil || !handedOn(attempt, call) {
		return false
	}
	for ifInstr, side := range flow.TestsAbove(call.Block()) {
		if errv, nilSide := testedError(ifInstr); errv != nil && side == nilSide && producer(errv, in) == attempt {
			return true
		}
	}
	return false
}

// predicateSide says what d's test singles out when it is a predicate of the program's own
// (autherrs.IsAuthError(err), taken for a verdict of either sense) and fail, the side that
// goes round, is the one where it holds; AnyFailure otherwise.
func predicateSide(d decision, fail *ssa.BasicBlock, l *span, in func(*ssa.BasicBlock) bool) Failures {
	cond := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If).Cond
	match := d.block.Succs[countNots(cond)%2]
	if match != fail {
		return AnyFailure
	}
	if kinds, ok := singledOut(unNot(cond), d.call, in, match, l); ok {
		return kinds
	}
	return AnyFailure
}

// RetrySet says which failures the scope itself retries: for a self-retrying client or a
// library, transient ones; for a hand-written scope, what it goes round on for its decisive
// call.
func (s *Scope) RetrySet() Failures {
	switch {
	case s.Kind == Callback && s.helperOn != 0 && s.helperOn != AnyFailure:
		return s.helperOn
	case s.Kind == Callback:
		if on := s.callbackRetries(); on != 0 && on != AnyFailure {
			return on // what its callback hands back unmarked, when its tests say
		}
		return Transient | FailOther
	case s.Kind == Client:
		return Transient | FailOther // a library retries what its classifier says
	}
	return s.RetriesOn(s.Decisive)
}

// callbackRetries says what a callback's helper goes round on, read from the callback: for
// each call whose outcome it tests, the failures of it that reach a return the helper retries,
// and its own condition where it returns an error no tested call made. AnyFailure when that
// cannot be read.
func (s *Scope) callbackRetries() Failures {
	sp := s.callbackSpan()
	if sp == nil {
		return AnyFailure
	}
	var on Failures
	tested := make(map[ssa.CallInstruction]bool)
	for _, d := range decisions(s.Fn, sp.contains) {
		if !tested[d.call] {
			tested[d.call] = true
			on |= s.retriesOn(d.call, sp)
		}
	}
	for _, b := range s.Fn.Blocks {
		if !sp.back(b) {
			continue
		}
		ret := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if p := producer(returned(ret.Results[len(ret.Results)-1]), sp.contains); p == nil || !tested[p] {
			on |= FailOther // fmt.Errorf("not healthy yet"): the callback's own condition
		}
	}
	return on
}

// errorsOf says what the error of call can mean: a request sent with net/http or a dial
// fails only in its transport; any other call may return any error.
func errorsOf(rem *remote.Result, call ssa.CallInstruction) Failures {
	rc := rem.Of(call)
	if rc == nil || rc.Via != nil {
		return AnyFailure
	}
	switch rc.Kind {
	case remote.Dial:
		return FailTransport
	case remote.HTTP:
		if id := flow.ID(rc.Func); id.Pkg == "net/http" {
			return FailTransport // Client.Do, Get, Post, RoundTrip: an answer of any status is no error
		}
	}
	return AnyFailure
}

// narrowed says which failures go round from fail, the failure side of a test that any error
// takes (err != nil), when every way round passes a test that singles some out: errors.Is(err,
// X) or errors.As whose side that goes round is the one where it matches (if !errors.Is(err,
// errLocked) { return err }), or a status comparison. AnyFailure when a way round passes none.
func narrowed(fail *ssa.BasicBlock, call ssa.CallInstruction, l *loops.Loop, in func(*ssa.BasicBlock) bool) Failures {
	return narrowedFrom(fail, call, roundsOf(l), in, AnyFailure)
}

// A span is where the ways round of a scope run, for reading which failures take them: a
// loop's body up to its header, or a callback's body up to the returns its helper retries.
type span struct {
	contains  func(*ssa.BasicBlock) bool
	back      func(*ssa.BasicBlock) bool // the way round is taken on reaching it
	canRepeat func(*ssa.BasicBlock) bool // a way round lies ahead
}

// roundsOf is l's span; nil for no loop.
func roundsOf(l *loops.Loop) *span {
	if l == nil {
		return nil
	}
	return &span{contains: l.Contains, back: func(b *ssa.BasicBlock) bool { return b == l.Header }, canRepeat: l.CanRepeat}
}

// callbackSpan is the span of a retry callback that returns an error: its ways round end at
// the returns of an error its helper retries (not nil, not marked permanent). Nil for other
// scopes, and for a condition function (done, err), whose polls are not told apart.
func (s *Scope) callbackSpan() *span {
	if s.Kind != Callback || s.Fn == nil || !errorCallback(s.Fn.Signature) {
		return nil
	}
	retried := retriedError(s)
	back := make(map[*ssa.BasicBlock]bool)
	for _, b := range s.Fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 &&
			retried(ret.Results[len(ret.Results)-1], b, nil) && !stoppedBefore(ret) {
			back[b] = true
		}
	}
	if len(back) == 0 {
		return nil
	}
	ahead := make(map[*ssa.BasicBlock]bool) // whether a retried return lies ahead, as found
	return &span{
		contains: func(b *ssa.BasicBlock) bool { return b.Parent() == s.Fn },
		back:     func(b *ssa.BasicBlock) bool { return back[b] },
		canRepeat: func(b *ssa.BasicBlock) bool {
			if r, ok := ahead[b]; ok {
				return r
			}
			ahead[b] = false
			for x := range flow.Forward([]*ssa.BasicBlock{b}, nil) {
				if back[x] {
					ahead[b] = true
					break
				}
			}
			return ahead[b]
		},
	}
}

// narrowedFrom is narrowed for a failure side that only the failures in start take (a status
// test's: StatusCode >= 400), which later tests of the answer may narrow further.
func narrowedFrom(fail *ssa.BasicBlock, call ssa.CallInstruction, l *span, in func(*ssa.BasicBlock) bool, start Failures) Failures {
	var on Failures
	type visit struct {
		b       *ssa.BasicBlock
		allowed Failures
	}
	seen := make(map[visit]bool)
	// allowed is what the tests of the answer passed on this way leave possible
	// (httpResponse != nil && StatusCode >= 400 && StatusCode <= 499 { return }: the ways
	// round carry transport failures and 5xx, not a 401).
	var walk func(b *ssa.BasicBlock, allowed Failures) bool // false: a way round with no narrowing test
	walk = func(b *ssa.BasicBlock, allowed Failures) bool {
		if seen[visit{b, allowed}] || !l.contains(b) || allowed == 0 {
			return true // seen, out of the loop, or taken by no failure: not a way round
		}
		seen[visit{b, allowed}] = true
		if l.back(b) {
			if allowed != AnyFailure {
				on |= allowed
				return true
			}
			return false
		}
		if ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if tested, nilSide := testedError(ifInstr); tested != nil && producer(tested, in) == call {
				// The failure tested again (err != nil && err.Error() != "..."): its nil side
				// is not a way the failure takes.
				return walk(b.Succs[1-nilSide], allowed)
			}
			if nilSide, ok := answerPresent(ifInstr, call); ok {
				// No answer: a transport failure; an answer: not one.
				return walk(b.Succs[nilSide], allowed&FailTransport) && walk(b.Succs[1-nilSide], allowed&^FailTransport)
			}
			if op, code, negated, ok := answerStatus(ifInstr, call); ok {
				return walk(b.Succs[0], allowed&statusesOn(op, code, negated, true)) && walk(b.Succs[1], allowed&statusesOn(op, code, negated, false))
			}
			if op, code, negated, ok := outcomeStatus(ifInstr, call, in); ok {
				return walk(b.Succs[0], allowed&statusesOn(op, code, negated, true)) && walk(b.Succs[1], allowed&statusesOn(op, code, negated, false))
			}
			cond := unNot(ifInstr.Cond)
			negated := countNots(ifInstr.Cond)%2 == 1
			match, other := b.Succs[0], b.Succs[1]
			if negated {
				match, other = other, match
			}
			kinds, ok := singledOut(cond, call, in, match, l)
			if target, m, isCmp := sentinelMatch(ifInstr.Cond, call, in); !ok && isCmp {
				// err != ErrNoNode: the side where it matched is the other one.
				match, other, ok = b.Succs[m], b.Succs[1-m], true
				kinds = FailOther
				if transportTarget(target) {
					kinds = FailTransport
				} else if answeredAtOnce(call, target) {
					kinds = FailAnswered
				}
			}
			if !ok {
				var equal bool
				if kinds, equal, ok = answerText(cond, call, in); ok && !equal {
					match, other = other, match
				}
			}
			if ok {
				if l.canRepeat(other) && !walk(other, allowed) {
					return false // other errors go round too
				}
				if l.canRepeat(match) && allowed == AnyFailure {
					on |= kinds
				} else if l.canRepeat(match) {
					on |= kinds & allowed // (what the answer's tests left)
				}
				return true
			}
		}
		for _, s := range b.Succs {
			if !walk(s, allowed) {
				return false
			}
		}
		return true
	}
	if !walk(fail, start) {
		return AnyFailure
	}
	return on
}

// singledOut says which failures of call a test singles out, when cond is one: errors.Is(err,
// X) or errors.As(err, &t) (a transport failure, or the program's own error; for a type, the
// statuses its fields are then compared with on the way round from match), or a predicate of
// the program's own that is true only once it singled the error out (isUnauthorized(err)).
func singledOut(cond ssa.Value, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool, match *ssa.BasicBlock, l *span) (Failures, bool) {
	if target, ok := singlesOut(cond, call, in); ok {
		on, typed := targetKind(target, cond)
		if on == FailOther && answeredAtOnce(call, target) {
			return FailAnswered, true
		}
		if !typed {
			return on, true
		}
		return typedAnswer(match, l), true
	}
	c, ok := cond.(*ssa.Call)
	if !ok {
		return 0, false
	}
	if knowledge.NotFoundTest(flow.ID(flow.Callee(c.Common()))) && len(c.Call.Args) == 1 && producer(c.Call.Args[0], in) == call {
		return FailNotFound, true // apierrors.IsNotFound(err)
	}
	fn := c.Call.StaticCallee()
	for i, a := range c.Call.Args {
		if fn != nil && typeis.ErrorLike(a.Type()) && producer(a, in) == call {
			on, _, ok := predicateSummary(fn, i, 0)
			return on, ok
		}
	}
	return 0, false
}

// namesCause reports whether every way round from fail, the failure side of a test of call's
// outcome, passes a test that reads a field of the error (apiErr.Code == 16, after errors.As),
// or looks in its text for a phrase of no transport failure (strings.HasPrefix(err.Error(),
// "NOSCRIPT")), or a predicate of the program's own whose every true result did one of these
// (isUnauthorized(err)): the answer named the cause the loop goes round on.
func namesCause(fail *ssa.BasicBlock, call ssa.CallInstruction, l *loops.Loop, in func(*ssa.BasicBlock) bool) bool {
	return everyWayRound(fail, l, func(b *ssa.BasicBlock) bool {
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || b == l.Header {
			return false
		}
		cond := unNot(ifInstr.Cond)
		if text, ok := textTest(cond, func(v ssa.Value) bool { return producer(v, in) == call }); ok {
			return namedText(text)
		}
		if c, ok := cond.(*ssa.Call); ok {
			if fn := c.Call.StaticCallee(); fn != nil {
				for i, a := range c.Call.Args {
					if typeis.ErrorLike(a.Type()) && producer(a, in) == call {
						if _, coded, ok := predicateSummary(fn, i, 0); ok && coded {
							return true
						}
					}
				}
			}
			return false
		}
		return readsField(cond) && typedFrom(cond, call, in)
	})
}

// namesSentinel reports whether every way round loop l from fail, the failure side of call,
// takes the side of a test on which call's error matched an error variable of the program or
// a library (err == zk.ErrNoNode, errors.Is(err, ErrLocked)) that is not a transport failure
// (io.EOF, context.DeadlineExceeded): the answer named the one cause the loop goes round on.
func namesSentinel(fail *ssa.BasicBlock, call ssa.CallInstruction, l *loops.Loop, in func(*ssa.BasicBlock) bool) bool {
	if !l.Contains(fail) {
		return false
	}
	return !l.CanRepeatAvoiding(fail, func(e loops.Edge) bool {
		ifInstr, ok := lastInstr(e.From).(*ssa.If)
		if !ok || e.From == l.Header || e.From.Succs[0] == e.From.Succs[1] {
			return false
		}
		target, m, ok := sentinelMatch(ifInstr.Cond, call, in)
		return ok && e.To == e.From.Succs[m] && !transportTarget(target)
	})
}

// namesState reports whether every way round loop l from fail, the failure side of call,
// passes a test of a field of call's answer, decoded in the loop, against a string constant
// (switch errResp.Error { case "authorization_pending": ... }): the server answered, and named
// the state the loop waits out; other answers leave.
func namesState(fail *ssa.BasicBlock, call ssa.CallInstruction, l *loops.Loop) bool {
	if !l.Contains(fail) {
		return false
	}
	// The way round must take the side of the test on which the state matched.
	matched := func(e loops.Edge) bool {
		ifInstr, ok := lastInstr(e.From).(*ssa.If)
		if !ok || e.From == l.Header {
			return false
		}
		cmp, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			return false
		}
		side := e.From.Succs[0]
		if cmp.Op == token.NEQ {
			side = e.From.Succs[1]
		}
		if e.To != side || e.From.Succs[0] == e.From.Succs[1] {
			return false
		}
		for _, pair := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
			if k, ok := flow.Unwrap(pair[1]).(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String && (decodedField(pair[0], call, l) || decodedEntry(pair[0], call, l)) {
				return true
			}
		}
		return false
	}
	return !l.CanRepeatAvoiding(fail, matched)
}

// decodedField reports whether v is a field of a value that a decoder of loop l filled from
// what call returned (body := io.ReadAll(resp.Body); json.Unmarshal(body, &errResp);
// errResp.Error).
func decodedField(v ssa.Value, call ssa.CallInstruction, l *loops.Loop) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	root, ok := fa.X.(*ssa.Alloc)
	if !ok || root.Referrers() == nil {
		return false
	}
	for _, r := range *root.Referrers() {
		var c ssa.CallInstruction
		switch r := r.(type) {
		case *ssa.MakeInterface:
			for _, u := range *r.Referrers() {
				if call, ok := u.(ssa.CallInstruction); ok {
					c = call
				}
			}
		case ssa.CallInstruction:
			c = r
		}
		if c != nil && c.Block() != nil && l.Contains(c.Block()) && knowledge.Decodes(flow.Callee(c.Common())) && handedOn(call, c) {
			return true
		}
	}
	return false
}

// decodedEntry reports whether v is an entry of a map, or a field of a value, that a call of
// loop l returned after decoding what call returned (data := load(resp.Body); data["error"]):
// a decoder, or a function of the package that hands its input to one.
func decodedEntry(v ssa.Value, call ssa.CallInstruction, l *loops.Loop) bool {
	var of ssa.Value
	switch x := flow.Unwrap(v).(type) {
	case *ssa.Lookup:
		of = x.X
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			of = fa.X
		}
	case *ssa.Field:
		of = x.X
	}
	if ex, ok := of.(*ssa.Extract); ok {
		of = ex.Tuple
	}
	c, ok := of.(*ssa.Call)
	if !ok || !l.Contains(c.Block()) || !handedOn(call, c) {
		return false
	}
	if knowledge.Decodes(flow.Callee(c.Common())) {
		return true
	}
	fn := c.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg != call.Parent().Pkg {
		return false
	}
	for d := range flow.Calls(fn) {
		if !knowledge.Decodes(flow.Callee(d.Common())) {
			continue
		}
		given := false // the decoder reads what the function was handed
		for _, a := range d.Common().Args {
			flow.Backward(a, 16, func(x ssa.Value) bool {
				_, isParam := x.(*ssa.Parameter)
				given = given || isParam
				return !given
			})
		}
		if given {
			return true
		}
	}
	return false
}

// typedFrom reports whether cond reads what a type assertion or errors.As singled out of
// call's error.
func typedFrom(cond ssa.Value, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool) bool {
	found := false
	flow.Backward(cond, 16, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.TypeAssert:
			found = producer(x.X, in) == call
		case *ssa.Alloc:
			// var apiErr *APIError; errors.As(err, &apiErr): the target handed to errors.As.
			for _, r := range *x.Referrers() {
				if c, ok := r.(*ssa.Call); ok && errorsPredicate(c) && len(c.Call.Args) == 2 && producer(c.Call.Args[0], in) == call {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// sentinel reports whether cond, a test that singles out some errors, matches one error value
// (errors.Is(err, ErrLocked)) rather than a type (errors.As, a type assertion).
func sentinel(cond ssa.Value) bool {
	if b, ok := cond.(*ssa.BinOp); ok {
		return b.Op == token.EQL // err == ErrLocked
	}
	c, ok := cond.(*ssa.Call)
	return ok && flow.ID(flow.Callee(c.Common())).Name == "Is"
}

// errorVar reports whether v is the value of a package-level error variable (ErrKeyModified).
func errorVar(v ssa.Value) bool {
	load, ok := flow.Unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL || !typeis.ErrorLike(load.Type()) {
		return false
	}
	_, global := load.X.(*ssa.Global)
	return global
}
