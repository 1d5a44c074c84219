package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// Resending: whether a scope can send a request again after it may have taken effect. A
// request that failed before it left the process (a dial error, a refused connection, a DNS
// failure), or that the server turned away with 429 Too Many Requests (its status, or a text
// of the answer that names the 429 and nothing else), had no effect, so
// repeating it is safe whatever it does; anything else (a reset connection, a timeout, a 5xx)
// leaves the effect unknown.

// Resends reports whether scope s may run call again after an attempt of it may have reached
// the server, were call a non-idempotent request without an idempotency key. call is the
// request's send or, when the send is in a function the scope calls, that call; for a Client
// scope, its Site. A scope does not resend:
//
//   - when every way from call back to the next attempt goes through the side of a test that
//     holds only for errors proving the request never left (see NeverSent): a loop's back
//     edge, a recursive call, a callback's return of an error its helper retries (not nil,
//     not marked permanent: backoff.Permanent, retry-go's Unrecoverable, the runtime's
//     Permanent; for sethvargo/go-retry, only what RetryableError marks; not after roko's
//     rt.Break()), a range body's
//     return to its iterator;
//   - when the scope goes round only after the dependency answered (Scope.Answered): the
//     request is sent again only once its outcome is known;
//   - when the library's retry condition is such a test (retry-go's RetryIf, go-retryablehttp's
//     CheckRetry, the runtime's Policy.Classify);
//   - when the library holds such requests back or keys them itself: this project's
//     runtime/retry with its default classifier or a Policy declared Idempotent, its
//     retryhttp.Transport, stripe-go (a key per call), resty v3 without
//     SetRetryAllowNonIdempotent, Cloud Storage (idempotent operations only).
func (r *Result) Resends(s *Scope, call ssa.CallInstruction) bool {
	if rule, ok := resendRules[s.lib]; ok {
		switch rule(r, s) {
		case holdsBack:
			return false
		case resendsAll:
			return true
		}
	}
	if s.Kind == Client {
		return true
	}
	if s.turnedAway {
		return false // an inferred helper that goes round only once the answer turned it away
	}
	if s.Answered {
		return false // sent again only after it was answered, its outcome known
	}
	fn := s.Fn
	if s.Kind == Loop || s.Kind == Goto {
		fn = s.at
	}
	from := r.inFunc(fn, call)
	if fn == nil || from == nil {
		return true // the model cannot follow it: assume the worst
	}
	switch s.Kind {
	case Loop, Goto:
		if s.Loop == nil {
			return true
		}
		if c, ok := from.(ssa.CallInstruction); ok && afterAttempt(s, false)(c) {
			return false // a step after the attempt failed (ask for a fix), which leaves when it fails
		}
		if waitsAsTold(s) {
			return false // every round waits as long as the failure said: turned away, no effect
		}
		return r.reachesFrom(from, func(b *ssa.BasicBlock) bool { return s.Loop.Contains(b) }, func(from, to *ssa.BasicBlock) bool {
			return to == s.Loop.Header
		}, nil, nil)
	case Recursion:
		return r.reachesFrom(from, all, nil, func(instr ssa.Instruction) bool {
			c, ok := instr.(*ssa.Call)
			return ok && c.Common().StaticCallee() == fn
		}, nil)
	case Iterator:
		return r.reachesFrom(from, all, nil, func(instr ssa.Instruction) bool {
			ret, ok := instr.(*ssa.Return)
			return ok && len(ret.Results) == 1 && !isFalse(ret.Results[0])
		}, nil)
	case Callback:
		sig := fn.Signature
		if sig.Results().Len() == 0 || !typeis.Error(sig.Results().At(sig.Results().Len()-1).Type()) ||
			sig.Results().Len() == 2 && typeis.Bool(sig.Results().At(0).Type()) {
			return true // a condition function (done, err): its polls are not told apart
		}
		retried := retriedError(s)
		var visited map[*ssa.BasicBlock]bool
		return r.reachesFrom(from, all, nil, func(instr ssa.Instruction) bool {
			ret, ok := instr.(*ssa.Return)
			return ok && len(ret.Results) > 0 && retried(ret.Results[len(ret.Results)-1], ret.Block(), visited) && !stoppedBefore(ret)
		}, &visited)
	}
	return true
}

func all(*ssa.BasicBlock) bool { return true }

// inFunc returns the instruction of fn that call is, or that creates the closure call is in.
func (r *Result) inFunc(fn *ssa.Function, call ssa.CallInstruction) ssa.Instruction {
	var instr ssa.Instruction = call
	for range 32 {
		if instr == nil || fn == nil {
			return nil
		}
		if instr.Parent() == fn {
			return instr
		}
		instr = r.creators[instr.Parent()]
	}
	return nil
}

// reachesFrom reports whether, after the instruction from, control can reach an edge for which
// edge holds or an instruction for which at holds, through blocks for which in holds, without
// taking the side of a test that holds only for errors proving a request never left. When
// visited is not nil it receives the blocks reached (for at to look at phis).
func (r *Result) reachesFrom(from ssa.Instruction, in func(*ssa.BasicBlock) bool, edge func(from, to *ssa.BasicBlock) bool, at func(ssa.Instruction) bool, visited *map[*ssa.BasicBlock]bool) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	if visited != nil {
		*visited = seen
	}
	start := from.Block()
	var check func(b *ssa.BasicBlock, i int) bool // instructions of b from index i
	check = func(b *ssa.BasicBlock, i int) bool {
		if at == nil {
			return false
		}
		for _, instr := range b.Instrs[i:] {
			if at(instr) {
				return true
			}
		}
		return false
	}
	sent, _ := from.(ssa.CallInstruction) // the call whose error a text test must read
	idx := slices.Index(start.Instrs, from)
	seen[start] = true
	if check(start, idx+1) {
		return true
	}
	queue := []*ssa.BasicBlock{start}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		blocked := -1
		if ifInstr, ok := lastInstr(b).(*ssa.If); ok {
			blocked = r.neverSentSide(ifInstr.Cond, 0, sent)
		}
		for i, succ := range b.Succs {
			if i == blocked {
				continue
			}
			if edge != nil && edge(b, succ) {
				return true
			}
			if seen[succ] || !in(succ) {
				continue
			}
			seen[succ] = true
			if check(succ, 0) {
				return true
			}
			queue = append(queue, succ)
		}
	}
	return false
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

func isFalse(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value)
}

func isTrue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value)
}

// A resendRule is what a library does with a non-idempotent request without a key.
type resendRule uint8

const (
	judgeCode  resendRule = iota // the code of the scope decides (its returns, its retry condition)
	holdsBack                    // never sent again once it may have reached the server
	resendsAll                   // sent again on failures that leave its effect unknown
)

// resendRules are the libraries that decide for themselves, by their settings.
var resendRules = map[*library]func(r *Result, s *Scope) resendRule{
	idemlintRetry: func(r *Result, s *Scope) resendRule {
		if set := s.setting("Policy.Idempotent"); set != nil && set.Value != nil && !isFalse(flow.Unwrap(set.Value)) {
			return holdsBack // declared safe to repeat by its author
		}
		if set := s.setting("Policy.Classify"); set != nil && set.Value != nil && !flow.IsZero(set.Value) {
			return r.predicate(set.Value)
		}
		return holdsBack // IsRetryable repeats a sent POST only when it is keyed
	},
	idemlintTransport: func(*Result, *Scope) resendRule { return holdsBack },
	stripeGo:          func(*Result, *Scope) resendRule { return holdsBack }, // it keys the POSTs it retries
	gcsStorage:        func(*Result, *Scope) resendRule { return holdsBack },
	restyClient: func(r *Result, s *Scope) resendRule {
		if s.Func == nil || s.Func.Pkg() == nil || s.Func.Pkg().Path() != "resty.dev/v3" {
			return resendsAll // v2 retries every method
		}
		if set := s.setting("SetRetryAllowNonIdempotent"); set != nil && set.Value != nil && !isFalse(flow.Unwrap(set.Value)) {
			return resendsAll
		}
		return holdsBack
	},
	retryablehttpClient:   (*Result).checkRetry,
	retryablehttpStandard: (*Result).checkRetry,
	avastRetryGo:          (*Result).retryIf,
	avastRetryGoV2:        (*Result).retryIf,
}

// checkRetry: go-retryablehttp retries what its CheckRetry says (by default transport errors,
// 429 and 5xx, for every method).
func (r *Result) checkRetry(s *Scope) resendRule {
	if set := s.setting("Client.CheckRetry"); set != nil && set.Value != nil && !flow.IsZero(set.Value) {
		if r.predicate(set.Value) == holdsBack {
			return holdsBack
		}
	}
	return resendsAll
}

// retryIf: retry-go retries what RetryIf says, of the errors the callback returns.
func (r *Result) retryIf(s *Scope) resendRule {
	if set := s.setting("RetryIf"); set != nil && set.Value != nil && r.predicate(set.Value) == holdsBack {
		return holdsBack
	}
	return judgeCode
}

// predicate judges a retry condition (func(error) bool, or CheckRetry's (ctx, resp, err) (bool,
// error)): it holds back when it is true only for errors that prove the request never left.
func (r *Result) predicate(v ssa.Value) resendRule {
	if fn := localFunc(v); fn != nil {
		if r.returnsNeverSent(fn, nil, 0) {
			return holdsBack
		}
		return resendsAll
	}
	if f, ok := flow.Unwrap(v).(*ssa.Function); ok && neverSentFunc[flow.ID(funcObj(f))] {
		return holdsBack
	}
	return resendsAll
}

func funcObj(f *ssa.Function) *types.Func {
	obj, _ := f.Object().(*types.Func)
	return obj
}

// setting returns the last setting of s named name, or nil.
func (s *Scope) setting(name string) *Setting {
	return s.settingAt(func(x Setting) bool { return x.Name == name })
}

// retriedError returns the test of whether a callback's returned error is retried by its
// helper: anything but nil and the library's permanent marks (for sethvargo/go-retry, only
// what its RetryableError marks). A phi is judged by its edges from the blocks reached.
func retriedError(s *Scope) func(v ssa.Value, b *ssa.BasicBlock, reached map[*ssa.BasicBlock]bool) bool {
	onlyMarked := s.lib == sethvargoRetry
	var retried func(v ssa.Value, b *ssa.BasicBlock, reached map[*ssa.BasicBlock]bool, depth int) bool
	retried = func(v ssa.Value, b *ssa.BasicBlock, reached map[*ssa.BasicBlock]bool, depth int) bool {
		v = flow.Unwrap(v)
		if flow.IsNil(v) {
			return false
		}
		switch x := v.(type) {
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			if permanentMarks[id] {
				return false
			}
			if onlyMarked {
				return id == flow.FuncID{Pkg: "github.com/sethvargo/go-retry", Name: "RetryableError"}
			}
		case *ssa.UnOp:
			// With defers, a result goes through a local: *t0 = v; rundefers; return *t0.
			if st := lastStore(x); st != nil && depth <= 8 {
				return retried(st.Val, b, reached, depth+1)
			}
		case *ssa.Phi:
			if depth > 8 {
				return true
			}
			for i, e := range x.Edges {
				if i < len(x.Block().Preds) && (reached == nil || reached[x.Block().Preds[i]]) && retried(e, x.Block().Preds[i], reached, depth+1) {
					return true
				}
			}
			return false
		}
		return !onlyMarked
	}
	return func(v ssa.Value, b *ssa.BasicBlock, reached map[*ssa.BasicBlock]bool) bool {
		return retried(v, b, reached, 0)
	}
}

// returned returns the value a return statement's result v holds: with defers, the value
// stored into the result's local before the deferred calls ran (*t0 = v; rundefers; return *t0).
func returned(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok {
		if st := lastStore(load); st != nil {
			return st.Val
		}
	}
	return v
}

// lastStore returns the store that a load of a local reads, when it is in the load's block.
func lastStore(load *ssa.UnOp) *ssa.Store {
	a, ok := load.X.(*ssa.Alloc)
	if !ok || load.Op != token.MUL {
		return nil
	}
	var last *ssa.Store
	for _, instr := range load.Block().Instrs {
		if instr == load {
			return last
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == a {
			last = st
		}
	}
	return nil
}

// permanentMarks are the library functions that mark an error as not to be retried.
var permanentMarks = map[flow.FuncID]bool{
	{Pkg: "github.com/cenkalti/backoff/v4", Name: "Permanent"}:             true,
	{Pkg: "github.com/cenkalti/backoff/v5", Name: "Permanent"}:             true,
	{Pkg: "github.com/cenkalti/backoff", Name: "Permanent"}:                true,
	{Pkg: "github.com/avast/retry-go/v4", Name: "Unrecoverable"}:           true,
	{Pkg: "github.com/avast/retry-go/v5", Name: "Unrecoverable"}:           true,
	{Pkg: "github.com/avast/retry-go", Name: "Unrecoverable"}:              true,
	{Pkg: "github.com/idemlint/idemlint/runtime/retry", Name: "Permanent"}: true,
}

// stopMarks are the library methods a callback calls to end its helper's retries whatever it
// returns: roko's Retrier.Break.
var stopMarks = map[flow.FuncID]bool{
	{Pkg: "github.com/buildkite/roko", Recv: "Retrier", Name: "Break"}: true,
}

// stoppedBefore reports whether a call of a stopMarks method comes before ret on every way to
// it (in its block, or in one that dominates it): the error it returns is not retried.
func stoppedBefore(ret *ssa.Return) bool {
	for b := ret.Block(); b != nil; b = b.Idom() {
		for _, instr := range b.Instrs {
			if instr == ssa.Instruction(ret) {
				break
			}
			if c, ok := instr.(*ssa.Call); ok && stopMarks[flow.ID(flow.Callee(c.Common()))] {
				return true
			}
		}
	}
	return false
}

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
// where such a test holds). A text test counts only when it reads the error of sent, the call
// that sent the request (not a decoding error read after the answer came).
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
			return typeis.Named(t, "net", "DNSError") || r.retryAfterType(t)
		case neverSentFunc[id]:
			return true
		}
		if text, ok := anyTextTest(x); ok && textKinds(text) == Fail429 {
			// strings.Contains(string(body), "returned HTTP error 429"): whatever text it
			// reads, it names a rate limit and nothing else: the server turned it away.
			return true
		}
		sentErr := func(e ssa.Value) bool { return sent != nil && producer(e, all) == sent }
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
// Requests or 401 Unauthorized: the server turned the request away before processing it.
func turnedAway(b *ssa.BinOp) bool {
	x, y := b.X, b.Y
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
	}
	n, ok := flow.IntConst(y)
	return ok && (n == 429 || n == 401) && statusOf(x) != nil
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

// pointee returns what t points to, twice at most (errors.As takes **net.DNSError).
func pointee(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return t
}

// waitsAsTold reports whether loop scope s waits, on every way round, a duration read from
// the failure's error (time.Sleep(rateLimit.RetryAfter) after err.(*RateLimitedError), in the
// loop or in a handler it hands the error to): the server turned the request away and said
// when to come back, so the request had no effect to repeat.
func waitsAsTold(s *Scope) bool {
	if s.Loop == nil || s.Fn == nil || s.Decisive == nil {
		return false
	}
	var told []*ssa.BasicBlock
	for _, sl := range s.Wait.Sleeps {
		if b := sl.blockIn(s.Fn); b != nil && toldByError(sl) {
			told = append(told, b)
		}
	}
	if len(told) == 0 {
		return false
	}
	found := false
	for _, d := range decisions(s.Fn, s.Loop.Contains) {
		fail := d.block.Succs[1-d.success]
		if d.call != s.Decisive || !s.Loop.Contains(fail) || !s.Loop.CanRepeat(fail) {
			continue
		}
		// (A handler's verdict is tested after it waited: the wait is above the decision.)
		above := slices.ContainsFunc(told, func(b *ssa.BasicBlock) bool {
			return b.Dominates(d.block) && s.Decisive.Block().Dominates(b) && b != s.Decisive.Block()
		})
		if !above && !everyWayRound(fail, s.Loop, func(b *ssa.BasicBlock) bool { return slices.Contains(told, b) }) {
			return false
		}
		found = true
	}
	return found
}

// toldByError reports whether the wait sl lasts a duration read from an error's fields: its
// own duration, or every wait of the function of the package it calls.
func toldByError(sl Sleep) bool {
	if sl.Duration != nil {
		return fromErrorField(sl.Duration)
	}
	callee := sl.Call.Common().StaticCallee()
	if callee == nil || callee.Pkg != sl.Call.Parent().Pkg || len(callee.Blocks) == 0 {
		return false
	}
	found := false
	for c := range flow.BlockCalls(callee.Blocks) {
		if d := sleepDuration(c); d != nil {
			if !fromErrorField(d) {
				return false
			}
			found = true
		}
	}
	return found
}

// fromErrorField reports whether duration d is computed from a field of an error value, and
// from nothing that merges it with another delay (delay := time.Second; if errors.As(err, &rl)
// { delay = rl.RetryAfter }: other failures wait the second).
func fromErrorField(d ssa.Value) bool {
	found, merged := false, false
	flow.Backward(d, 16, func(v ssa.Value) bool {
		switch x := v.(type) {
		case *ssa.Phi:
			merged = true
		case *ssa.FieldAddr:
			found = found || carriesWait(x.X.Type())
		case *ssa.Field:
			found = found || carriesWait(x.X.Type())
		}
		return !merged
	})
	return found && !merged
}
