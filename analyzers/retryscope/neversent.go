package retryscope

// Requests that never left: the errors, statuses and answers that say a request failed
// before it reached the server, or that the server turned it away unprocessed (see Resends).

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// neverSentFunc are library predicates true only for errors of requests that never left, for
// the requests asked about (non-idempotent, without a key): the runtime's IsRetryable.
var neverSentFunc = map[flow.FuncID]bool{
	{Pkg: "github.com/idemlint/idemlint/runtime/retry", Name: "IsRetryable"}: true,
}

// unsentErrnos are the system errors that a connection attempt fails with before anything is
// sent.
var unsentErrnos = []string{"ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH", "EADDRNOTAVAIL", "EHOSTDOWN"}

// neverSentSide returns which successor of a branch on cond (0: true, 1: false) is taken only
// for errors proving that a request never left the process, or for its rejection with 429 Too
// Many Requests or an answer of the service's own, or -1. Such tests are: resp.StatusCode == 429,
// strings.Contains(err.Error(), "zone locked") (a text that names no transport failure, 5xx,
// rate limit or passing failure),
// errors.Is(err, syscall.ECONNREFUSED) (or ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL,
// EHOSTDOWN), errors.As(err, &dnsErr) with a *net.DNSError, opErr.Op == "dial" of a
// *net.OpError, the runtime's retry.IsRetryable, their conjunctions and disjunctions, their
// negations, and functions of the package that return only such tests (or false, or true
// where such a test holds). A text test (strings.Contains, or a regular expression compiled
// from a constant: errBusy.MatchString(err.Error())) counts only when it reads the error of
// sent, the call that sent the request, or of a function of the package handed sent's results
// (checkResp(c.Do(req))): not a decoding error read after the answer came.
func (r *Result) neverSentSide(cond ssa.Value, depth int, sent ssa.CallInstruction) int {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		if side := r.neverSentSide(u.X, depth, sent); side >= 0 {
			return 1 - side
		}
		return -1
	}
	if b, ok := cond.(*ssa.BinOp); ok && b.Op == token.NEQ && (dialOp(b) || turnedAway(b)) {
		return 1
	}
	if r.neverSent(cond, depth, sent) {
		return 0
	}
	return -1
}

// neverSent reports whether the boolean v is true only for errors proving that a request
// never left (see neverSentSide for sent).
func (r *Result) neverSent(v ssa.Value, depth int, sent ssa.CallInstruction) bool {
	if depth > 6 {
		return false
	}
	if e, ok := v.(*ssa.Extract); ok && e.Index == 0 {
		v = e.Tuple // again, err := p.observe(resp): a verdict returned beside an error
	}
	switch x := v.(type) {
	case *ssa.BinOp:
		return x.Op == token.EQL && (dialOp(x) || turnedAway(x))
	case *ssa.Call:
		fn := flow.Callee(x.Common())
		id := flow.ID(fn)
		args := x.Call.Args
		switch {
		case knowledge.ErrorsTest(id) && id.Name == "Is" && len(args) == 2:
			return unsentErrno(args[1])
		case knowledge.ErrorsTest(id) && id.Name == "As" && len(args) == 2:
			t := pointee(flow.Unwrap(args[1]).Type())
			return typeis.Named(t, "net", "DNSError") || r.retryAfterType(t) || knowledge.RateLimitError(t)
		case neverSentFunc[id]:
			return true
		}
		if text, _, ok := anyTextTest(x); ok && textKinds(text) == Fail429 {
			// strings.Contains(string(body), "returned HTTP error 429"): whatever text it
			// reads, it names a rate limit and nothing else: the server turned it away.
			return true
		}
		sentErr := func(e ssa.Value) bool { return sent != nil && sentBy(producer(e, all), sent) }
		if text, ok := textTest(x, sentErr); ok && (textKinds(text) == FailOther || textKinds(text) == Fail429) {
			// strings.Contains(err.Error(), "Code:10205"): an answer of the service's own
			// that names a condition, not a transport failure, a 5xx or a passing one: the
			// server refused the request (the zone is locked by another update); or one that
			// names a rate limit and nothing else ("secondary rate limit"): turned away.
			return true
		}
		if callee := x.Call.StaticCallee(); callee != nil && len(callee.Blocks) > 0 && callee.Pkg == x.Parent().Pkg {
			return r.returnsNeverSent(callee, methodParam(x, callee), depth+1)
		}
	case *ssa.Phi:
		// a || b and a && b: each way in is false, true where such a test holds, or such a test.
		for i, e := range x.Edges {
			switch {
			case isFalse(e):
			case isTrue(e):
				if i >= len(x.Block().Preds) {
					return false
				}
				pred := x.Block().Preds[i]
				if ifInstr, ok := lastInstr(pred).(*ssa.If); ok {
					// a || b: true straight from a's test, on its never-sent side.
					if side := r.neverSentSide(ifInstr.Cond, depth+1, sent); side >= 0 && pred.Succs[side] == x.Block() {
						continue
					}
				}
				if !r.underNeverSent(pred, depth, sent) {
					return false
				}
			case !r.neverSent(e, depth+1, sent):
				return false
			}
		}
		return len(x.Edges) > 0
	}
	return false
}

// returnsNeverSent reports whether fn's first result is, on every return, false, a never-sent
// test, or true where such a test holds. Returns that run only where method, the parameter
// handed the request's method, is an idempotent one (if method == http.MethodGet { return
// 429 or 5xx }) do not concern the requests asked about, which are not.
func (r *Result) returnsNeverSent(fn *ssa.Function, method *ssa.Parameter, depth int) bool {
	if fn.Signature.Results().Len() == 0 || !typeis.Bool(fn.Signature.Results().At(0).Type()) {
		return false
	}
	found := false
	for ret := range flow.Returns(fn) {
		if len(ret.Results) == 0 {
			return false
		}
		if ret.Block() == fn.Recover {
			continue // reached only when a deferred call recovers a panic
		}
		v := returned(ret.Results[0]) // with defers: *t0 = v; rundefers; return *t0
		switch {
		case method != nil && idempotentMethodOnly(ret.Block(), method):
		case isFalse(v):
		case isTrue(v):
			if !r.underNeverSent(ret.Block(), depth, nil) {
				return false
			}
		case !r.neverSent(v, depth+1, nil):
			return false
		}
		found = true
	}
	return found
}

// underNeverSent reports whether block b runs only on the never-sent side of a test.
func (r *Result) underNeverSent(b *ssa.BasicBlock, depth int, sent ssa.CallInstruction) bool {
	for d := b; d != nil; d = d.Idom() {
		ifInstr, ok := lastInstr(d).(*ssa.If)
		if !ok || d == b && len(d.Succs) != 2 {
			continue
		}
		// The edge into the side must dominate b: with a || b, the true side of a's test is
		// also reached from b's.
		if side := r.neverSentSide(ifInstr.Cond, depth+1, sent); side >= 0 && d.Succs[side].Dominates(b) && len(d.Succs[side].Preds) == 1 {
			return true
		}
	}
	return false
}

// dialOp reports whether b compares the Op field of a net.OpError with "dial".
func dialOp(b *ssa.BinOp) bool {
	x, y := b.X, b.Y
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
	}
	if s, ok := flow.StringConst(y); !ok || s != "dial" {
		return false
	}
	var fa *ssa.FieldAddr
	switch v := x.(type) {
	case *ssa.UnOp:
		fa, _ = v.X.(*ssa.FieldAddr)
	}
	if fa == nil {
		return false
	}
	fv := flow.FieldVar(fa)
	return fv != nil && fv.Name() == "Op" && typeis.Named(fa.X.Type(), "net", "OpError")
}

// turnedAway reports whether b compares an *http.Response's StatusCode with 429 Too Many
// Requests, 401 Unauthorized or 403 Forbidden: the server turned the request away before
// processing it.
func turnedAway(b *ssa.BinOp) bool {
	n, ok := statusTest(b)
	if !ok {
		n, ok = errorStatusTest(b)
	}
	return ok && (n == 429 || refusedCredentials(n))
}

// errorStatusTest returns the status that b compares a field of an error with, when the field
// holds an HTTP status (the answer a client's error type carries: apiErr.StatusCode == 429).
func errorStatusTest(b *ssa.BinOp) (int64, bool) {
	field, _, n, ok := fieldCompare(b)
	if !ok {
		return 0, false
	}
	var of ssa.Value // the struct, or its address, whose field it is
	if _, fa := flow.FieldLoad(flow.Unwrap(field)); fa != nil {
		of = fa.X
	} else if f, ok := flow.Unwrap(field).(*ssa.Field); ok {
		of = f.X
	}
	return n, of != nil && (typeis.ErrorLike(of.Type()) || typeis.ErrorLike(types.NewPointer(of.Type())))
}

// refusedCredentials reports whether the HTTP status n refuses the caller's credentials.
func refusedCredentials(n int64) bool { return n == 401 || n == 403 }

// statusTest returns the status that b compares an HTTP response's status code with.
func statusTest(b *ssa.BinOp) (int64, bool) {
	_, _, n, ok := statusCompare(b)
	return n, ok
}

// OnlyAfterRefusal reports whether instr runs only where an HTTP answer refused the caller's
// credentials: every way to it takes the side of a test of a response's status where the
// status is 401 or 403 (the tests may be joined by || and &&), from its function's entry and,
// when it is in a loop of its function, from that loop's header. A request sent there logs in
// again (a new ticket or token) before the refused request is sent once more: it is not the
// operation that a loop around it repeats. (A loop inside the refusal's branch that sends a
// request again retries it: walked from the loop's header, the test is not on the way.)
func OnlyAfterRefusal(instr ssa.Instruction) bool {
	fn, target := instr.Parent(), instr.Block()
	if fn == nil || target == nil || len(fn.Blocks) == 0 || target == fn.Recover || !afterRefusal(fn.Blocks[0], target, nil) {
		return false
	}
	var inner *loops.Loop
	for _, l := range loops.Of(fn) {
		if l.Contains(target) && (inner == nil || inner.Contains(l.Header)) {
			inner = l
		}
	}
	return inner == nil || afterRefusal(inner.Header, target, inner)
}

// afterRefusal reports whether every way from start to target (inside l, when l is not nil)
// takes the refusing side of a test of a response's status.
func afterRefusal(start, target *ssa.BasicBlock, l *loops.Loop) bool {
	tested := false
	for b := range flow.Forward([]*ssa.BasicBlock{start}, func(from, to *ssa.BasicBlock) bool {
		if l != nil && (!l.Contains(to) || to == l.Header) {
			return false
		}
		if refused, ok := refusingSide(from); ok {
			tested = true
			return from.Succs[refused] != to
		}
		return true
	}) {
		if b == target {
			return false
		}
	}
	return tested
}

// refusingSide returns the successor of b taken when a response's status refuses the
// caller's credentials, where b ends in such a test.
func refusingSide(b *ssa.BasicBlock) (int, bool) {
	ifInstr, ok := lastInstr(b).(*ssa.If)
	if !ok {
		return 0, false
	}
	bin, ok := ifInstr.Cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return 0, false
	}
	if n, ok := statusTest(bin); !ok || !refusedCredentials(n) {
		return 0, false
	}
	if bin.Op == token.EQL {
		return 0, true
	}
	return 1, true
}

// methodParam returns the parameter of callee that call hands a request's method (req.Method),
// or nil.
func methodParam(call *ssa.Call, callee *ssa.Function) *ssa.Parameter {
	for i, a := range call.Call.Args {
		load, ok := flow.Unwrap(a).(*ssa.UnOp)
		if !ok || load.Op != token.MUL || i >= len(callee.Params) {
			continue
		}
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			if fv := flow.FieldVar(fa); fv != nil && fv.Name() == "Method" && typeis.Named(fa.X.Type(), "net/http", "Request") {
				return callee.Params[i]
			}
		}
	}
	return nil
}

// idempotentMethodOnly reports whether block b runs only where method equals a method that does
// not change state (remote.ChangesState): on the equal side of a comparison of it with such a
// constant.
func idempotentMethodOnly(b *ssa.BasicBlock, method *ssa.Parameter) bool {
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifInstr, ok := lastInstr(d).(*ssa.If)
		if !ok || len(d.Succs) != 2 {
			continue
		}
		cmp, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			continue
		}
		x, y := cmp.X, cmp.Y
		if _, ok := x.(*ssa.Const); ok {
			x, y = y, x
		}
		m, ok := flow.StringConst(y)
		if !ok || x != method || remote.ChangesState(m) {
			continue
		}
		equal := d.Succs[0]
		if cmp.Op == token.NEQ {
			equal = d.Succs[1]
		}
		if equal.Dominates(b) {
			return true
		}
	}
	return false
}

// unsentErrno reports whether v is one of the syscall errors of a connection never made.
func unsentErrno(v ssa.Value) bool {
	c, ok := flow.Unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	n, ok := types.Unalias(c.Type()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "syscall" || n.Obj().Name() != "Errno" {
		return false
	}
	for _, name := range unsentErrnos {
		if k, ok := n.Obj().Pkg().Scope().Lookup(name).(*types.Const); ok && constant.Compare(k.Val(), token.EQL, c.Value) {
			return true
		}
	}
	return false
}

// sentBy reports whether p, the call an error comes from, is sent, the call that sent the
// request, or a function of the package handed sent's results (resp, err =
// checkResp(c.Do(req)), which turns an error answer into an error).
func sentBy(p, sent ssa.CallInstruction) bool {
	if p == nil || p == sent {
		return p != nil
	}
	callee := p.Common().StaticCallee()
	if callee == nil || callee.Pkg != p.Parent().Pkg {
		return false
	}
	sv, ok := sent.(*ssa.Call)
	return ok && slices.ContainsFunc(p.Common().Args, func(a ssa.Value) bool {
		e, ok := flow.Unwrap(a).(*ssa.Extract)
		return ok && e.Tuple == sv || flow.Unwrap(a) == ssa.Value(sv)
	})
}
