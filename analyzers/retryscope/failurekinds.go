// Which kinds of failure a test singles out: a status compared with a constant, a typed
// error's code, a text searched for in the error, an errors.Is or errors.As target.

package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"golang.org/x/tools/go/ssa"
)

// typedAnswer says which failures go round from b, reached once an error of a type was singled
// out (apiErr, ok := err.(*APIError)): when the way round passes a test of an integer field
// against a constant (apiErr.StatusCode != 404, its side that goes round), the statuses on that
// side; otherwise the program's own condition (FailOther).
func typedAnswer(b *ssa.BasicBlock, l *span) Failures {
	if l == nil {
		return FailOther // a recursion: no way round to follow
	}
	seen := make(map[*ssa.BasicBlock]bool)
	for steps := 0; steps < 16 && l.contains(b) && !l.back(b) && !seen[b]; steps++ {
		seen[b] = true
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			if len(b.Succs) != 1 {
				break
			}
			b = b.Succs[0]
			continue
		}
		round := []bool{l.canRepeat(b.Succs[0]), l.canRepeat(b.Succs[1])}
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
	if c, ok := unNot(cond).(*ssa.Call); ok {
		return listedStatus(c, (side == 0) != negated)
	}
	c, ok := unNot(cond).(*ssa.BinOp)
	if !ok {
		return 0, false
	}
	_, op, code, ok := fieldCompare(c)
	if !ok {
		return 0, false
	}
	return statusesOn(op, code, negated, side == 0), true
}

// fieldCompare returns the integer field holding an HTTP status that c compares with a
// constant (apiErr.StatusCode != 404, or 404 != apiErr.StatusCode), the comparison with the
// field on the left, and the constant.
func fieldCompare(c *ssa.BinOp) (field ssa.Value, op token.Token, code int64, ok bool) {
	op, field, k := c.Op, c.X, c.Y
	if _, isConst := flow.IntConst(field); isConst {
		field, k, op = c.Y, c.X, mirror(c.Op)
	}
	code, ok = flow.IntConst(k)
	if !ok || !statusField(field, code) {
		return nil, 0, 0, false
	}
	return field, op, code, true
}

// statusField reports whether field, compared with code, is an integer field holding an HTTP
// status.
func statusField(field ssa.Value, code int64) bool {
	if code < 100 || code > 599 || !typeis.Integer(field.Type()) {
		return false
	}
	switch f := flow.Unwrap(field).(type) {
	case *ssa.Field:
		return true
	case *ssa.UnOp:
		_, ok := f.X.(*ssa.FieldAddr)
		return ok
	}
	return false
}

// listedStatus says which statuses hold (or not) for slices.Contains([]int{404, 401},
// apiErr.Status): on the side where the field is among the constants, those statuses; the
// other side is not read.
func listedStatus(c *ssa.Call, holds bool) (Failures, bool) {
	if id := flow.ID(flow.Callee(c.Common())); id.Pkg != "slices" || id.Recv != "" || id.Name != "Contains" || len(c.Call.Args) != 2 || !holds {
		return 0, false
	}
	elems, ok := flow.Elems(flow.Unwrap(c.Call.Args[0]))
	if !ok || len(elems) == 0 {
		return 0, false
	}
	var on Failures
	for _, e := range elems {
		code, isConst := flow.IntConst(e)
		if !isConst || !statusField(c.Call.Args[1], code) {
			return 0, false
		}
		on |= statusesOn(token.EQL, code, false, true)
	}
	return on, true
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

// sentinelMatch returns the error variable that cond compares call's error with (errors.Is(err,
// ErrNoNode), err == ErrNoNode, err != ErrNoNode: its load), and the successor of a branch on
// cond taken when they match.
func sentinelMatch(cond ssa.Value, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool) (target ssa.Value, match int, ok bool) {
	match = countNots(cond) % 2
	switch c := unNot(cond).(type) {
	case *ssa.Call:
		if sentinel(c) && errorsPredicate(c) && len(c.Call.Args) == 2 && producer(c.Call.Args[0], in) == call && errorVar(c.Call.Args[1]) {
			return c.Call.Args[1], match, true
		}
	case *ssa.BinOp:
		errv, g := sentinelOf(c)
		if g == nil || producer(errv, in) != call {
			return nil, 0, false
		}
		target = c.Y
		if target == errv {
			target = c.X
		}
		if c.Op == token.NEQ {
			match = 1 - match
		}
		return target, match, true
	}
	return nil, 0, false
}

// textTest returns the constant that cond looks for in the text of an error for which of
// holds (strings.Contains(err.Error(), "over quota"), HasPrefix, HasSuffix, EqualFold).
func textTest(cond ssa.Value, of func(ssa.Value) bool) (*ssa.Const, bool) {
	text, in, ok := anyTextTest(cond)
	if !ok {
		return nil, false
	}
	msg, ok := flow.Unwrap(in).(*ssa.Call)
	if !ok || !errorText(msg, of) {
		return nil, false
	}
	return text, true
}

// anyTextTest returns the constant text that cond looks for, and the text it looks in: a
// strings.Contains, HasPrefix, HasSuffix or EqualFold call, or a regular expression's
// MatchString, the expression compiled from a constant (regexp.MustCompile(`is busy.$`), in a
// package variable set once or where it is matched) or given to regexp.MatchString.
func anyTextTest(cond ssa.Value) (text *ssa.Const, in ssa.Value, ok bool) {
	c, ok := cond.(*ssa.Call)
	if !ok || len(c.Call.Args) != 2 {
		return nil, nil, false
	}
	var pattern ssa.Value
	switch id := flow.ID(flow.Callee(c.Common())); {
	case id.Pkg == "strings" && id.Recv == "" && (id.Name == "Contains" || id.Name == "HasPrefix" || id.Name == "HasSuffix" || id.Name == "EqualFold"):
		pattern, in = c.Call.Args[1], c.Call.Args[0]
	case id.Pkg == "regexp" && id.Recv == "" && id.Name == "MatchString":
		pattern, in = c.Call.Args[0], c.Call.Args[1]
	case id.Pkg == "regexp" && id.Recv == "Regexp" && id.Name == "MatchString" && !c.Call.IsInvoke():
		pattern, in = compiledFrom(c.Call.Args[0]), c.Call.Args[1]
	default:
		return nil, nil, false
	}
	text, ok = flow.Unwrap(pattern).(*ssa.Const)
	if !ok || text.Value == nil || text.Value.Kind() != constant.String {
		return nil, nil, false
	}
	return text, in, true
}

// compiledFrom returns the pattern a regular expression was compiled from by
// regexp.MustCompile or Compile: where it is matched, or in the initialiser of the package
// variable that holds it; nil otherwise.
func compiledFrom(re ssa.Value) ssa.Value {
	pattern := func(v ssa.Value) ssa.Value {
		if e, ok := v.(*ssa.Extract); ok && e.Index == 0 {
			v = e.Tuple
		}
		call, ok := flow.Unwrap(v).(*ssa.Call)
		if !ok || len(call.Call.Args) != 1 {
			return nil
		}
		if id := flow.ID(flow.Callee(call.Common())); id.Pkg != "regexp" || id.Recv != "" || id.Name != "MustCompile" && id.Name != "Compile" {
			return nil
		}
		return call.Call.Args[0]
	}
	re = flow.Unwrap(re)
	load, ok := re.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return pattern(re)
	}
	g, ok := load.X.(*ssa.Global)
	if !ok {
		return nil
	}
	if v := flow.InitValue(g); v != nil {
		return pattern(v)
	}
	return nil
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

// namedText reports whether target is a text looked for in an error's text that names no
// transport failure, 5xx or rate limit ("NOSCRIPT", "zone locked"): the server's answer named
// the program's own condition.
func namedText(target ssa.Value) bool {
	text, ok := target.(*ssa.Const)
	return ok && text.Value != nil && text.Value.Kind() == constant.String && textKinds(text) == FailOther
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
	if knowledge.RateLimitError(targetType(target)) {
		return Fail429, false // go-github's RateLimitError: turned away by a rate limit
	}
	if knowledge.PendingAPIError(targetType(target)) {
		return FailPending, false // a device authorization not approved yet
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
