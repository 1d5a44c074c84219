package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
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
func (s *Scope) RetriesOn(call ssa.CallInstruction) Failures {
	if s.Kind == Callback && s.helperOn != 0 && s.helperOn != AnyFailure {
		return s.helperOn // the helper's test of what the callback returns
	}
	if call != nil && wayBack(s, call) {
		// A retrying recursion's call of itself (joinSync and retryJoinSync calling each
		// other) is its next attempt, not a layer it retries around.
		return 0
	}
	in, round, ok := s.rounds()
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
			f = predicateSide(d, fail, s.Loop, in) // a loop's, or a recursion's (no loop)
		}
		if f == AnyFailure && s.Loop != nil {
			f = narrowed(fail, call, s.Loop, in)
		} else if f != 0 && s.Loop != nil && f&^(Fail5xx|Fail429|FailOther4xx|FailNotFound|FailAuth|FailPending) == 0 {
			f = narrowedFrom(fail, call, s.Loop, in, f) // statuses, which later tests may narrow
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
func predicateSide(d decision, fail *ssa.BasicBlock, l *loops.Loop, in func(*ssa.BasicBlock) bool) Failures {
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
	case s.Kind == Client, s.Kind == Callback:
		return Transient | FailOther // a library retries what its classifier or callback says
	}
	return s.RetriesOn(s.Decisive)
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
	return narrowedFrom(fail, call, l, in, AnyFailure)
}

// narrowedFrom is narrowed for a failure side that only the failures in start take (a status
// test's: StatusCode >= 400), which later tests of the answer may narrow further.
func narrowedFrom(fail *ssa.BasicBlock, call ssa.CallInstruction, l *loops.Loop, in func(*ssa.BasicBlock) bool, start Failures) Failures {
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
		if seen[visit{b, allowed}] || !l.Contains(b) || allowed == 0 {
			return true // seen, out of the loop, or taken by no failure: not a way round
		}
		seen[visit{b, allowed}] = true
		if b == l.Header {
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
			if !ok {
				var equal bool
				if kinds, equal, ok = answerText(cond, call, in); ok && !equal {
					match, other = other, match
				}
			}
			if ok {
				if l.CanRepeat(other) && !walk(other, allowed) {
					return false // other errors go round too
				}
				if l.CanRepeat(match) && allowed == AnyFailure {
					on |= kinds
				} else if l.CanRepeat(match) {
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
func singledOut(cond ssa.Value, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool, match *ssa.BasicBlock, l *loops.Loop) (Failures, bool) {
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
// or a predicate of the program's own whose every true result read one (isUnauthorized(err)):
// the answer named the cause the loop goes round on.
func namesCause(fail *ssa.BasicBlock, call ssa.CallInstruction, l *loops.Loop, in func(*ssa.BasicBlock) bool) bool {
	return everyWayRound(fail, l, func(b *ssa.BasicBlock) bool {
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || b == l.Header {
			return false
		}
		cond := unNot(ifInstr.Cond)
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

// namesState reports whether every way round loop l from fail, the failure side of call,
// passes a test of a field of call's answer, decoded in the loop, against a string constant
// (switch errResp.Error { case "authorization_pending": ... }): the server answered, and named
// the state the loop waits out; other answers leave.
func namesState(fail *ssa.BasicBlock, call ssa.CallInstruction, l *loops.Loop) bool {
	if !l.Contains(fail) {
		return false
	}
	return everyWayRound(fail, l, func(b *ssa.BasicBlock) bool {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok || b == l.Header {
			return false
		}
		cmp, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL {
			return false
		}
		for _, pair := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
			if k, ok := pair[1].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String && decodedField(pair[0], call, l) {
				return true
			}
		}
		return false
	})
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

// typedAnswer says which failures go round from b, reached once an error of a type was singled
// out (apiErr, ok := err.(*APIError)): when the way round passes a test of an integer field
// against a constant (apiErr.StatusCode != 404, its side that goes round), the statuses on that
// side; otherwise the program's own condition (FailOther).
func typedAnswer(b *ssa.BasicBlock, l *loops.Loop) Failures {
	if l == nil {
		return FailOther // a recursion: no way round to follow
	}
	seen := make(map[*ssa.BasicBlock]bool)
	for steps := 0; steps < 16 && l.Contains(b) && b != l.Header && !seen[b]; steps++ {
		seen[b] = true
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			if len(b.Succs) != 1 {
				break
			}
			b = b.Succs[0]
			continue
		}
		round := []bool{l.CanRepeat(b.Succs[0]), l.CanRepeat(b.Succs[1])}
		if round[0] == round[1] {
			if !round[0] {
				break
			}
			break // both sides go round: this test does not narrow
		}
		side := 0
		if round[1] {
			side = 1
		}
		if on, ok := fieldStatus(ifInstr.Cond, side); ok {
			return on
		}
		b = b.Succs[side]
	}
	return FailOther
}

// fieldStatus says which statuses take successor side of a branch on cond when cond compares an
// integer field with a constant (apiErr.StatusCode != 404, with its negations).
func fieldStatus(cond ssa.Value, side int) (Failures, bool) {
	negated := countNots(cond)%2 == 1
	c, ok := unNot(cond).(*ssa.BinOp)
	if !ok {
		return 0, false
	}
	op, field, k := c.Op, c.X, c.Y
	if _, isConst := flow.IntConst(field); isConst {
		field, k, op = c.Y, c.X, mirror(c.Op)
	}
	code, ok := flow.IntConst(k)
	if !ok || code < 100 || code > 599 || !typeis.Integer(field.Type()) {
		return 0, false
	}
	switch f := flow.Unwrap(field).(type) {
	case *ssa.Field:
	case *ssa.UnOp:
		if _, ok := f.X.(*ssa.FieldAddr); !ok {
			return 0, false
		}
	default:
		return 0, false
	}
	return statusesOn(op, code, negated, side == 0), true
}

// codeStatus is fieldStatus for an AWS error code: cond compares what ErrorCode returns, of a
// smithy.APIError or a modeled error, with a constant code (apiErr.ErrorCode() ==
// "ResourceInUseException"). On the side where the code matches, it says what the code is: a
// client fault the SDK's retryer never retries (knowledge.UnretriedAPIErrorCode), or nothing.
func codeStatus(cond ssa.Value, side int) (Failures, bool) {
	negated := countNots(cond)%2 == 1
	c, ok := unNot(cond).(*ssa.BinOp)
	if !ok || c.Op != token.EQL && c.Op != token.NEQ {
		return 0, false
	}
	call, k := c.X, c.Y
	if _, isConst := flow.StringConst(call); isConst {
		call, k = c.Y, c.X
	}
	code, ok := flow.StringConst(k)
	m, isCall := flow.Unwrap(call).(*ssa.Call)
	if !ok || !isCall {
		return 0, false
	}
	var recv types.Type
	switch {
	case m.Call.IsInvoke() && m.Call.Method.Name() == "ErrorCode":
		recv = m.Call.Value.Type()
	case !m.Call.IsInvoke() && m.Call.StaticCallee() != nil && m.Call.StaticCallee().Name() == "ErrorCode" && len(m.Call.Args) == 1:
		recv = m.Call.Args[0].Type()
	default:
		return 0, false
	}
	matches := (c.Op == token.EQL) != negated
	if matches != (side == 0) {
		return 0, false // the side where the code is another one
	}
	unretried, notFound := knowledge.UnretriedAPIErrorCode(recv, code)
	switch {
	case !unretried:
		return 0, false
	case notFound:
		return FailNotFound, true
	}
	return FailOther4xx, true
}

// singlesOut reports whether cond is true only for some errors of call: errors.Is(err, X),
// err == X (X a package's error variable), errors.As(err, &t), or the ok of a type
// assertion (pgErr, ok := err.(PGError)). It returns
// what the test names (X, &t, or a value of the asserted type).
func singlesOut(cond ssa.Value, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool) (ssa.Value, bool) {
	return singlesOutOf(cond, func(v ssa.Value) bool { return producer(v, in) == call })
}

// singlesOutOf is singlesOut for the errors for which of holds (a predicate's parameter).
func singlesOutOf(cond ssa.Value, of func(ssa.Value) bool) (ssa.Value, bool) {
	switch c := cond.(type) {
	case *ssa.Call:
		if errorsPredicate(c) && len(c.Call.Args) == 2 && of(c.Call.Args[0]) {
			return c.Call.Args[1], true
		}
	case *ssa.BinOp:
		// err == ErrKeyModified: an error variable of a package compared directly.
		x, y := c.X, c.Y
		if errorVar(x) {
			x, y = y, x
		}
		if c.Op == token.EQL && errorVar(y) && of(x) {
			return y, true
		}
	case *ssa.Extract:
		if ta, ok := c.Tuple.(*ssa.TypeAssert); ok && c.Index == 1 && typeis.ErrorLike(ta.X.Type()) && of(ta.X) {
			return ta, true
		}
	}
	if text, ok := textTest(cond, of); ok {
		return text, true
	}
	return nil, false
}

// textTest returns the constant that cond looks for in the text of an error for which of
// holds (strings.Contains(err.Error(), "over quota"), HasPrefix, HasSuffix, EqualFold).
func textTest(cond ssa.Value, of func(ssa.Value) bool) (*ssa.Const, bool) {
	text, ok := anyTextTest(cond)
	if !ok {
		return nil, false
	}
	msg, ok := flow.Unwrap(cond.(*ssa.Call).Call.Args[0]).(*ssa.Call)
	if !ok || !errorText(msg, of) {
		return nil, false
	}
	return text, true
}

// anyTextTest returns the constant text that cond, a strings.Contains, HasPrefix, HasSuffix or
// EqualFold call, looks for in whatever text it is given.
func anyTextTest(cond ssa.Value) (*ssa.Const, bool) {
	c, ok := cond.(*ssa.Call)
	if !ok || len(c.Call.Args) != 2 {
		return nil, false
	}
	switch id := flow.ID(flow.Callee(c.Common())); {
	case id.Pkg != "strings" || id.Recv != "":
		return nil, false
	case id.Name != "Contains" && id.Name != "HasPrefix" && id.Name != "HasSuffix" && id.Name != "EqualFold":
		return nil, false
	}
	text, ok := flow.Unwrap(c.Call.Args[1]).(*ssa.Const)
	if !ok || text.Value == nil || text.Value.Kind() != constant.String {
		return nil, false
	}
	return text, true
}

// textKinds says which failures an error's text names (knowledge.ErrorText): the program's
// own condition when it names none.
func textKinds(text *ssa.Const) Failures {
	k := knowledge.ErrorText(constant.StringVal(text.Value))
	var on Failures
	if k&knowledge.TextTransport != 0 {
		on |= FailTransport
	}
	if k&knowledge.Text5xx != 0 {
		on |= Fail5xx
	}
	if k&knowledge.Text429 != 0 {
		on |= Fail429
	}
	if on == 0 {
		on = FailOther
	}
	return on
}

// targetKind says what a test cond that singles out target picks: a transport failure, the
// program's own sentinel, or a type of the program's (typed), whose fields may say more.
func targetKind(target, cond ssa.Value) (on Failures, typed bool) {
	if text, ok := target.(*ssa.Const); ok && text.Value != nil && text.Value.Kind() == constant.String {
		return textKinds(text), false
	}
	switch {
	case transportTarget(target):
		return FailTransport, false
	case sentinel(cond):
		return FailOther, false
	}
	if unretried, notFound := knowledge.UnretriedAPIError(targetType(target)); unretried {
		// An SDK's modeled client fault (kinesis types.ResourceNotFoundException), which its
		// client never retries: not what a self-retrying client's layer goes round on.
		if notFound {
			return FailNotFound, false
		}
		return FailOther4xx, false
	}
	return FailOther, true
}

// failuresOf says what the failure side of decision d singles out.
func failuresOf(d decision) Failures {
	ifInstr := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If)
	cond := unNot(ifInstr.Cond)
	switch c := cond.(type) {
	case *ssa.BinOp:
		x, y := c.X, c.Y
		if flow.IsNil(x) {
			x, y = y, x
		}
		if flow.IsNil(y) && flow.IsError(x) {
			return AnyFailure // err != nil
		}
		op, status, k := c.Op, c.X, c.Y
		if _, isConst := flow.IntConst(status); isConst {
			status, k, op = c.Y, c.X, mirror(c.Op)
		}
		code, ok := flow.IntConst(k)
		if !ok || statusOf(status) == nil {
			return AnyFailure
		}
		// The statuses for which the branch takes the failure side: the condition (with its
		// negations) is true on successor 0.
		negated := countNots(ifInstr.Cond)%2 == 1
		return statusesOn(op, code, negated, d.success == 1)
	case *ssa.Call:
		if errorsPredicate(c) && len(c.Call.Args) == 2 {
			if transportTarget(c.Call.Args[1]) {
				return FailTransport
			}
			return FailOther
		}
	}
	return AnyFailure // a policy's verdict, a bool the model cannot read
}

// transportTarget reports whether the target of errors.Is or errors.As names a failure of
// the transport: a timeout or a cancelled deadline, a network or syscall error, an EOF (what
// goes round on one goes round on a connection the peer closed).
func transportTarget(v ssa.Value) bool {
	v = flow.Unwrap(v)
	if c, ok := v.(*ssa.Const); ok && knowledge.LocalErrno(c.Type(), c.Value) {
		return false // syscall.EADDRINUSE: this machine's own
	}
	t := targetType(v)
	for _, name := range []string{"net.Error", "*net.OpError", "*net.DNSError", "*url.Error", "syscall.Errno", "*os.SyscallError"} {
		if types.TypeString(t, nil) == name || strings.HasSuffix(types.TypeString(t, nil), "/"+strings.TrimPrefix(name, "*")) {
			return true
		}
	}
	if load, ok := v.(*ssa.UnOp); ok {
		if g, ok := load.X.(*ssa.Global); ok && g.Pkg != nil {
			switch g.Pkg.Pkg.Path() + "." + g.Name() {
			case "context.DeadlineExceeded", "io.EOF", "io.ErrUnexpectedEOF", "os.ErrDeadlineExceeded", "net.ErrClosed":
				return true
			}
		}
	}
	if c, ok := v.(*ssa.Const); ok && typeis.Named(c.Type(), "syscall", "Errno") {
		return true // syscall.ECONNRESET, ECONNREFUSED
	}
	return false
}

// targetType returns the error type a target of errors.As or a type assertion names.
func targetType(v ssa.Value) types.Type {
	v = flow.Unwrap(v)
	t := v.Type()
	if ta, ok := v.(*ssa.TypeAssert); ok {
		t = ta.AssertedType // opErr, ok := err.(*net.OpError)
	} else if p, ok := t.Underlying().(interface{ Elem() types.Type }); ok && strings.HasPrefix(v.Type().String(), "*") {
		t = p.Elem() // errors.As(err, &netErr): the type pointed to
	}
	return t
}

// statusesOn says which kinds of status answer take the side of a branch on "status op code"
// (with negated negations) where the condition is cond: probed with typical statuses.
func statusesOn(op token.Token, code int64, negated, cond bool) Failures {
	var on Failures
	for _, probe := range []struct {
		status int64
		kind   Failures
	}{{503, Fail5xx}, {500, Fail5xx}, {429, Fail429}, {404, FailNotFound}, {401, FailAuth}, {409, FailPending}, {400, FailOther4xx}} {
		holds := constant.Compare(constant.MakeInt64(probe.status), op, constant.MakeInt64(code)) != negated
		if holds == cond {
			on |= probe.kind
		}
	}
	return on
}
