package retryscope

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Tests of an attempt's answer on a loop's way round: whether there is one, its status, the
// text of its error.

// answerText says which failures a comparison of the whole text of call's error with a
// constant picks (err.Error() == "CAPTCHA not match."), and whether the comparison holds on
// a match (== rather than !=). A text that names no transient failure is an answer: the
// error carries what the server said (FailAnswered).
func answerText(cond ssa.Value, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool) (Failures, bool, bool) {
	cmp, ok := cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return 0, false, false
	}
	for _, pair := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
		text, ok := flow.Unwrap(pair[1]).(*ssa.Const)
		if !ok || text.Value == nil || text.Value.Kind() != constant.String {
			continue
		}
		msg, ok := flow.Unwrap(pair[0]).(*ssa.Call)
		if !ok || !errorText(msg, func(v ssa.Value) bool { return producer(v, in) == call }) {
			continue
		}
		on := textKinds(text)
		if on == FailOther {
			on = FailAnswered
		}
		return on, cmp.Op == token.EQL, true
	}
	return 0, false, false
}

// errorText reports whether msg is err.Error() for an error for which of holds.
func errorText(msg *ssa.Call, of func(ssa.Value) bool) bool {
	if len(msg.Call.Args) > 1 || msg.Call.Method == nil && msg.Call.StaticCallee() == nil {
		return false
	}
	var recv ssa.Value
	switch {
	case msg.Call.IsInvoke() && msg.Call.Method.Name() == "Error" && len(msg.Call.Args) == 0:
		recv = msg.Call.Value
	case !msg.Call.IsInvoke() && msg.Call.StaticCallee().Name() == "Error" && len(msg.Call.Args) == 1:
		recv = msg.Call.Args[0]
	}
	return recv != nil && typeis.ErrorLike(recv.Type()) && of(recv)
}

// answer returns call's first result when it is an HTTP response (*http.Response), else nil.
func answer(call ssa.CallInstruction) ssa.Value {
	v, ok := call.(*ssa.Call)
	if !ok {
		return nil
	}
	for _, ref := range *v.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == 0 && typeis.Named(pointee(e.Type()), "net/http", "Response") {
			return e
		}
	}
	return nil
}

// answerPresent reports whether ifInstr tests call's HTTP response against nil, and which
// successor it takes when there is none.
func answerPresent(ifInstr *ssa.If, call ssa.CallInstruction) (nilSide int, ok bool) {
	resp := answer(call)
	cmp, isCmp := ifInstr.Cond.(*ssa.BinOp)
	if resp == nil || !isCmp || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return 0, false
	}
	x, y := flow.Unwrap(cmp.X), flow.Unwrap(cmp.Y)
	if flow.IsNil(x) {
		x, y = y, x
	}
	if x != resp || !flow.IsNil(y) {
		return 0, false
	}
	if cmp.Op == token.NEQ {
		return 1, true
	}
	return 0, true
}

// answerStatus reports whether ifInstr compares the status of call's HTTP response with a
// constant, and how (status op code, negated by as many nots).
func answerStatus(ifInstr *ssa.If, call ssa.CallInstruction) (op token.Token, code int64, negated, ok bool) {
	resp := answer(call)
	cmp, isCmp := unNot(ifInstr.Cond).(*ssa.BinOp)
	if resp == nil || !isCmp || !comparison(cmp.Op) {
		return 0, 0, false, false
	}
	status, k, op := cmp.X, cmp.Y, cmp.Op
	if _, isConst := flow.IntConst(status); isConst {
		status, k, op = cmp.Y, cmp.X, mirror(cmp.Op)
	}
	code, isConst := flow.IntConst(k)
	if !isConst || statusOf(status) != resp {
		return 0, 0, false, false
	}
	return op, code, countNots(ifInstr.Cond)%2 == 1, true
}

// outcomeStatus is answerStatus for a status the call returns in a field of its outcome, a
// struct that holds its error (herr.Code == 409, where code, herr := c.get(url)): an integer
// field of the value the call returned, compared with a constant between 100 and 599.
func outcomeStatus(ifInstr *ssa.If, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool) (op token.Token, code int64, negated, ok bool) {
	cmp, isCmp := unNot(ifInstr.Cond).(*ssa.BinOp)
	if !isCmp || !comparison(cmp.Op) {
		return 0, 0, false, false
	}
	field, k, op := cmp.X, cmp.Y, cmp.Op
	if _, isConst := flow.IntConst(field); isConst {
		field, k, op = cmp.Y, cmp.X, mirror(cmp.Op)
	}
	code, isConst := flow.IntConst(k)
	if !isConst || code < 100 || code > 599 || !typeis.Integer(field.Type()) {
		return 0, 0, false, false
	}
	var of ssa.Value
	switch f := flow.Unwrap(field).(type) {
	case *ssa.Field:
		of = f.X
	case *ssa.UnOp:
		if fa, isFA := f.X.(*ssa.FieldAddr); isFA && f.Op == token.MUL {
			of = heldIn(fa.X)
		}
	}
	if of == nil || !typeis.HoldsError(of.Type()) || producer(of, in) != call {
		return 0, 0, false, false
	}
	return op, code, countNots(ifInstr.Cond)%2 == 1, true
}
