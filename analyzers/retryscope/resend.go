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
)

// Resending: whether a scope can send a request again after it may have taken effect. A
// request that failed before it left the process (a dial error, a refused connection, a DNS
// failure), or that the server turned away with 429 Too Many Requests, 401 Unauthorized or
// 403 Forbidden (its status, or a text of the answer that names the 429 and nothing else),
// had no effect, so repeating it is safe whatever it does; anything else (a reset
// connection, a timeout, a 5xx) leaves the effect unknown.

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
//     CheckRetry, the runtime's Policy.Classify, every AddRetryCondition of a resty v2 client
//     or request: conditions replace its default of retrying a failed transport);
//   - when the library holds such requests back or keys them itself: this project's
//     runtime/retry with its default classifier or a Policy declared Idempotent, its
//     retryhttp.Transport, stripe-go (a key per call), resty v3 without
//     SetRetryAllowNonIdempotent, Cloud Storage (idempotent operations only).
func (r *Result) Resends(s *Scope, call ssa.CallInstruction) bool {
	if rule, ok := resendRules[s.lib.knowledgeOf()]; ok {
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
		// Back at the header, the next round must get to the attempt again: a loop whose
		// condition goes round only on a never-sent answer (for resp.StatusCode == 429
		// { ...; resp, err = c.Do(req) }) tests it at the top of the next round.
		again := func(b *ssa.BasicBlock) bool {
			target := from.Block()
			return target == b || r.reachesFrom(b.Instrs[0], s.Loop.Contains, func(_, to *ssa.BasicBlock) bool { return to == target }, nil, nil)
		}
		return r.reachesFrom(from, func(b *ssa.BasicBlock) bool { return s.Loop.Contains(b) }, func(_, to *ssa.BasicBlock) bool {
			return to == s.Loop.Header && again(to)
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
		if !errorCallback(fn.Signature) {
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

// errorCallback reports whether sig is a retried function that says by its last result, an
// error (or a pointer to a helper's own error type: func() *retries.Err), whether to go
// round: not a condition function (done bool, err error).
func errorCallback(sig *types.Signature) bool {
	r := sig.Results()
	return r.Len() > 0 && typeis.ErrorLike(r.At(r.Len()-1).Type()) && !(r.Len() == 2 && typeis.Bool(r.At(0).Type()))
}

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
		blocked, dead := -1, -1
		if ifInstr, ok := lastInstr(b).(*ssa.If); ok {
			blocked, dead = r.neverSentSide(ifInstr.Cond, 0, sent), decidedSide(ifInstr)
			if dead < 0 {
				dead = usedNilSide(ifInstr)
			}
		}
		for i, succ := range b.Succs {
			if i == blocked || i == dead {
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

// usedNilSide returns the successor that ifInstr takes when a pointer is nil (resp == nil,
// resp != nil) where the code above has already used it on every way there (its method
// called, resp.IsError(); a field read), or where it is a call's result of a type that is
// never nil (resty's *Response, knowledge.NeverNilResponse): the program holds it non-nil
// there, and that side is no way it takes. -1 otherwise.
func usedNilSide(ifInstr *ssa.If) int {
	x, nilSide := flow.NilBranch(ifInstr)
	if x == nil {
		return -1
	}
	x = flow.Unwrap(x)
	if _, ok := x.Type().Underlying().(*types.Pointer); !ok || x.Referrers() == nil {
		return -1
	}
	if ex, ok := x.(*ssa.Extract); ok && knowledge.NeverNilResponse(x.Type()) {
		if _, call := ex.Tuple.(*ssa.Call); call {
			return nilSide // resp, err = op(): a resty response, nil never
		}
	}
	b := ifInstr.Block()
	for _, ref := range *x.Referrers() {
		rb := ref.Block()
		if rb == nil || !rb.Dominates(b) {
			continue
		}
		switch u := ref.(type) {
		case *ssa.FieldAddr:
			if u.X == x {
				return nilSide
			}
		case *ssa.UnOp:
			if u.Op == token.MUL && u.X == x {
				return nilSide
			}
		case ssa.CallInstruction:
			if fn := u.Common().StaticCallee(); fn != nil && fn.Signature.Recv() != nil && len(u.Common().Args) > 0 && u.Common().Args[0] == x {
				return nilSide // resp.IsError(): a method called on it
			}
		}
	}
	return -1
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
var resendRules = map[*knowledge.Library]func(r *Result, s *Scope) resendRule{
	knowledge.IdemlintRetry: func(r *Result, s *Scope) resendRule {
		if set := s.setting("Policy.Idempotent"); set != nil && set.Value != nil && !isFalse(flow.Unwrap(set.Value)) {
			return holdsBack // declared safe to repeat by its author
		}
		if set := s.setting("Policy.Classify"); set != nil && set.Value != nil && !flow.IsZero(set.Value) {
			return r.predicate(set.Value)
		}
		return holdsBack // IsRetryable repeats a sent POST only when it is keyed
	},
	knowledge.IdemlintTransport: func(*Result, *Scope) resendRule { return holdsBack },
	knowledge.Stripe:            func(*Result, *Scope) resendRule { return holdsBack }, // it keys the POSTs it retries
	knowledge.CloudStorage:      func(*Result, *Scope) resendRule { return holdsBack },
	knowledge.Resty: func(r *Result, s *Scope) resendRule {
		if s.Func == nil || s.Func.Pkg() == nil || s.Func.Pkg().Path() != "resty.dev/v3" {
			return r.restyConditions(s) // v2 retries every method
		}
		if set := s.setting("SetRetryAllowNonIdempotent"); set != nil && set.Value != nil && !isFalse(flow.Unwrap(set.Value)) {
			return resendsAll
		}
		return holdsBack
	},
	knowledge.RetryableHTTP:         (*Result).checkRetry,
	knowledge.RetryableHTTPStandard: (*Result).checkRetry,
	knowledge.RetryGo:               (*Result).retryIf,
	knowledge.RetryGoV2:             (*Result).retryIf,
}

// restyConditions: resty v2 retries a failed transport, unless the client or the request has
// retry conditions: then only what one of them holds for (a condition replaces the default).
// Conditions that hold only for answers that turned the request away (429) resend nothing the
// server may have applied.
func (r *Result) restyConditions(s *Scope) resendRule {
	found := false
	for _, set := range s.Settings {
		if set.Name != "AddRetryCondition" {
			continue
		}
		if set.Value == nil || r.predicate(set.Value) != holdsBack {
			return resendsAll
		}
		found = true
	}
	if found {
		return holdsBack
	}
	return resendsAll
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
	onlyMarked := s.lib.knowledgeOf() == knowledge.GoRetry
	var retried func(v ssa.Value, b *ssa.BasicBlock, reached map[*ssa.BasicBlock]bool, depth int) bool
	retried = func(v ssa.Value, b *ssa.BasicBlock, reached map[*ssa.BasicBlock]bool, depth int) bool {
		if stopError(v, s.helperStops) {
			return false // opsretry.Fatal{Underlying: err}: the helper's own mark (before Unwrap strips it)
		}
		v = flow.Unwrap(v)
		if flow.IsNil(v) {
			return false
		}
		switch x := v.(type) {
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			if stopMark(id, s.helperMarks) {
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

// stopMark reports whether id marks an error as not to be retried: a library's mark
// (permanentMarks) or one of the helper's own (helperFact.Marks).
func stopMark(id flow.FuncID, marks []flow.FuncID) bool {
	return permanentMarks[id] || slices.Contains(marks, id)
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
