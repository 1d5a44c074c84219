package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// A decision is a branch on the outcome of a call: one successor is taken on success.
type decision struct {
	block   *ssa.BasicBlock // ends with the If
	call    ssa.CallInstruction
	success int  // index of the successor taken on success
	policy  bool // a retry policy's verdict, which may hold its own limit on attempts
}

// decisions returns the branches in blocks (those for which in holds) that test the outcome of
// a call made in those blocks: its error against nil, or an *http.Response's StatusCode
// against a constant.
func decisions(fn *ssa.Function, in func(*ssa.BasicBlock) bool) []decision {
	var ds []decision
	for _, b := range fn.Blocks {
		if !in(b) || len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		call, success := outcome(ifInstr.Cond, in)
		if call != nil {
			_, policy := retryPolicy(unNot(ifInstr.Cond), in)
			ds = append(ds, decision{block: b, call: call, success: success, policy: policy})
		}
	}
	return ds
}

// outcome analyses a branch condition. When it tests the result of a call made in the blocks
// for which in holds, it returns that call and which successor (0: true, 1: false) is taken
// when the call succeeded.
func outcome(cond ssa.Value, in func(*ssa.BasicBlock) bool) (ssa.CallInstruction, int) {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			call, success := outcome(c.X, in)
			return call, 1 - success
		}
	case *ssa.Extract, *ssa.Call, *ssa.Phi:
		// A retry policy: shouldRetry(err, resp), c.CheckRetry(ctx, resp, err), isRetryable(err).
		// When it says no, the loop is done, whatever the outcome was: that side plays the part
		// of success; the call it judges is the decisive one.
		if judged, ok := retryPolicy(cond, in); ok {
			return judged, 1
		}
	case *ssa.BinOp:
		x, y := c.X, c.Y
		if flow.IsNil(x) {
			x, y = y, x
		}
		if flow.IsNil(y) && typeis.ErrorLike(x.Type()) && (c.Op == token.EQL || c.Op == token.NEQ) {
			call := producer(x, in)
			if c.Op == token.EQL {
				return call, 0
			}
			return call, 1
		}
		// resp.StatusCode OP constant: success is where 200 falls.
		op := c.Op
		if _, ok := flow.IntConst(x); ok {
			x, y = y, x
			op = mirror(op)
		}
		code, ok := flow.IntConst(y)
		if !ok {
			return nil, 0
		}
		resp := statusOf(x)
		if resp == nil {
			return nil, 0
		}
		call := producer(resp, in)
		if constant.Compare(constant.MakeInt64(200), op, constant.MakeInt64(code)) {
			return call, 0
		}
		return call, 1
	}
	return nil, 0
}

// unNot strips logical negations.
func unNot(v ssa.Value) ssa.Value {
	for {
		u, ok := v.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			return v
		}
		v = u.X
	}
}

// retryPolicy reports whether the boolean v is the verdict of a retry policy called in the
// blocks: a call whose callee (function, method, or func-valued field or variable) has "retry"
// in its name, taking the error or response of another call made there. It returns that
// other call (or the policy call itself when there is none).
func retryPolicy(v ssa.Value, in func(*ssa.BasicBlock) bool) (ssa.CallInstruction, bool) {
	if judged := retryVerdict(v, in); judged != nil {
		return judged, true
	}
	call := producer(v, in)
	if call == nil || !strings.Contains(strings.ToLower(calleeName(call.Common())), "retry") {
		return nil, false
	}
	for _, a := range call.Common().Args {
		if typeis.ErrorLike(a.Type()) || typeis.HTTPResponse(a.Type()) {
			if judged := producer(a, in); judged != nil && judged != call {
				return judged, true
			}
		}
	}
	return call, true
}

// retryVerdict returns the call whose outcome a boolean variable named for retrying
// (needsRetry, shouldRetry, retryable) judges, when v is one: the call whose error the
// variable's computation compares with nil or hands to a check. Names that say the opposite
// (noRetry, stopRetrying) do not count.
func retryVerdict(v ssa.Value, in func(*ssa.BasicBlock) bool) ssa.CallInstruction {
	phi, ok := v.(*ssa.Phi)
	if !ok || !typeis.Bool(phi.Type()) {
		return nil
	}
	name := strings.ToLower(phi.Comment)
	if !strings.Contains(name, "retry") {
		return nil
	}
	for _, neg := range []string{"no", "stop", "skip", "dont", "done", "max"} {
		if strings.HasPrefix(name, neg) {
			return nil
		}
	}
	var judged ssa.CallInstruction
	flow.Backward(phi, 64, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.BinOp:
			if (flow.IsNil(x.X) || flow.IsNil(x.Y)) && typeis.ErrorLike(x.X.Type()) {
				judged = producer(x.X, in)
				if flow.IsNil(x.X) {
					judged = producer(x.Y, in)
				}
			}
		case *ssa.Call:
			for _, a := range x.Call.Args {
				if judged == nil && (typeis.ErrorLike(a.Type()) || typeis.HTTPResponse(a.Type())) {
					if p := producer(a, in); p != x {
						judged = p
					}
				}
			}
		}
		return judged == nil
	})
	return judged
}

// calleeName names what a call calls: the function or method, or the field, parameter or
// variable holding the function value.
func calleeName(c *ssa.CallCommon) string {
	if fn := flow.Callee(c); fn != nil {
		return fn.Name()
	}
	v := flow.Unwrap(c.Value)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	switch v := v.(type) {
	case *ssa.FieldAddr:
		if st, ok := v.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); ok {
			return st.Field(v.Field).Name()
		}
	case *ssa.Field:
		if st, ok := v.X.Type().Underlying().(*types.Struct); ok {
			return st.Field(v.Field).Name()
		}
	case *ssa.Parameter:
		return v.Name()
	case *ssa.FreeVar:
		return v.Name()
	case *ssa.Alloc:
		return v.Comment
	}
	return ""
}

func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// statusOf returns resp when v is a load of resp.StatusCode, resp an *http.Response.
func statusOf(v ssa.Value) ssa.Value {
	v = flow.Unwrap(v)
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	if n, ok := types.Unalias(ptr.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil &&
		n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Response" &&
		n.Underlying().(*types.Struct).Field(fa.Field).Name() == "StatusCode" {
		return fa.X
	}
	return nil
}

// producer returns the call in the blocks (in) whose result v is, looking through tuples,
// phis, conversions and local variables.
func producer(v ssa.Value, in func(*ssa.BasicBlock) bool) ssa.CallInstruction {
	var found ssa.CallInstruction
	seen := make(map[ssa.Value]bool)
	var visit func(v ssa.Value, depth int)
	visit = func(v ssa.Value, depth int) {
		if found != nil || v == nil || seen[v] || depth > 8 {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Call:
			if in(x.Block()) {
				found = x
			}
		case *ssa.Extract:
			visit(x.Tuple, depth+1)
		case *ssa.Phi:
			for _, e := range x.Edges {
				visit(e, depth+1)
			}
		case *ssa.ChangeInterface:
			visit(x.X, depth+1)
		case *ssa.MakeInterface:
			visit(x.X, depth+1)
		case *ssa.ChangeType:
			visit(x.X, depth+1)
		case *ssa.UnOp:
			if x.Op == token.MUL {
				if a, ok := x.X.(*ssa.Alloc); ok {
					for _, s := range flow.Stored(a) {
						visit(s, depth+1)
					}
				}
			}
		}
	}
	visit(v, 0)
	return found
}

// retryLoop reports whether loop l retries: a call in it is tested, and the loop leaves on
// success and goes round on failure. Leaving on success means: from the success side, control
// can leave the loop by an edge that the failure side cannot reach (so a loop whose two sides
// merge before leaving, or that leaves only when a later call fails, is not a retry), without
// going through the failure side of another test. And the call must not be made on a
// different element each time round (iteration over a collection is not retry).
func retryLoop(fn *ssa.Function, l *loops.Loop) (d decision, ok bool) {
	ds := decisions(fn, l.Contains)
	for _, d := range ds {
		succ, fail := d.block.Succs[d.success], d.block.Succs[1-d.success]
		if !l.CanRepeat(fail) {
			continue
		}
		otherFailures := func(e loops.Edge) bool {
			for _, o := range ds {
				if o.block != d.block && e.From == o.block && e.To == o.block.Succs[1-o.success] {
					return true
				}
			}
			return false
		}
		onSuccess := l.ExitEdges(d.block, succ, otherFailures)
		onFailure := l.ExitEdges(d.block, fail, nil)
		distinct := false
		for e := range onSuccess {
			if !onFailure[e] {
				distinct = true
			}
		}
		if distinct && !iterates(d.call, l) {
			return d, true
		}
	}
	return decision{}, false
}

// iterates reports whether the loop works through a sequence rather than repeating one
// operation: the call's arguments are taken from a collection or accessor by the loop's
// counter (items[i], v.Method(i)), or are the counter itself when it does not start at 0 or 1
// (for port := lo; port <= hi; port++), or come from a channel or from a call that consumes a
// source (Recv, Read, Next, Pop...); or the counter runs up to a length (i < len(items)).
func iterates(call ssa.CallInstruction, l *loops.Loop) bool {
	c := call.Common()
	args := append([]ssa.Value{c.Value}, c.Args...)
	found := false
	for _, a := range args {
		if phi, ok := flow.Unwrap(a).(*ssa.Phi); ok && phi.Block() == l.Header && typeis.Integer(phi.Type()) && !smallStart(phi, l) {
			return true
		}
		flow.Backward(a, 64, func(x ssa.Value) bool {
			var index ssa.Value
			switch x := x.(type) {
			case *ssa.Index:
				index = x.Index
			case *ssa.IndexAddr:
				index = x.Index
			case *ssa.Lookup:
				index = x.Index
			case *ssa.UnOp:
				found = found || x.Op == token.ARROW && l.Contains(x.Block())
			case *ssa.Select:
				found = found || l.Contains(x.Block())
			case *ssa.Call:
				if x != call && l.Contains(x.Block()) {
					for _, arg := range x.Call.Args {
						if loopCarried(arg, l) && typeis.Integer(arg.Type()) {
							found = true
						}
					}
					if consumes(calleeName(x.Common())) {
						found = true
					}
				}
			}
			if index != nil && loopCarried(index, l) {
				found = true
			}
			return !found
		})
	}
	return found || countsToLength(l)
}

// smallStart reports whether a counter phi starts at the constant 0 or 1, as attempt counters do.
func smallStart(phi *ssa.Phi, l *loops.Loop) bool {
	for i, e := range phi.Edges {
		if i < len(l.Header.Preds) && !l.Contains(l.Header.Preds[i]) {
			n, ok := flow.IntConst(e)
			return ok && (n == 0 || n == 1)
		}
	}
	return false
}

// consumes reports whether a function name says it takes the next item of a source.
func consumes(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"recv", "receive", "read", "next", "pop", "dequeue", "scan", "take", "poll"} {
		if strings.HasPrefix(n, w) {
			return true
		}
	}
	return false
}

// countsToLength reports whether the loop's header compares its counter with a length: len(x),
// cap(x), or a method such as Len() or NumMethod().
func countsToLength(l *loops.Loop) bool {
	ifInstr, ok := l.Header.Instrs[len(l.Header.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := ifInstr.Cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	for _, v := range []ssa.Value{cmp.X, cmp.Y} {
		call, ok := flow.Unwrap(v).(*ssa.Call)
		if !ok {
			continue
		}
		if b, ok := call.Call.Value.(*ssa.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
			return true
		}
		name := calleeName(call.Common())
		if name == "Len" || strings.HasPrefix(name, "Num") || name == "Count" || name == "Size" {
			return true
		}
	}
	return false
}

// loopCarried reports whether v is (a conversion of) a phi at the loop's header.
func loopCarried(v ssa.Value, l *loops.Loop) bool {
	phi, ok := flow.Unwrap(v).(*ssa.Phi)
	return ok && phi.Block() == l.Header
}

// loopBound finds what limits the attempts of a retry loop: an exit that compares a counter
// stepped in the loop against a limit.
func loopBound(fn *ssa.Function, l *loops.Loop, decisive ssa.CallInstruction) Bound {
	bound := Bound{Kind: BoundNone}
	for _, b := range fn.Blocks {
		if !l.Contains(b) || len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok || !typeis.Integer(cmp.X.Type()) {
			continue
		}
		if call, _ := outcome(cmp, l.Contains); call != nil {
			continue // a status check decides success, not the number of attempts
		}
		if typeis.Duration(cmp.X.Type()) || !changesInLoop(cmp.X, l) && !changesInLoop(cmp.Y, l) {
			continue // a time check, or a comparison of values the loop does not step
		}
		exit := -1
		for i, s := range b.Succs {
			if l.CanExit(s) && !l.CanRepeat(s) {
				exit = i
			}
		}
		if exit < 0 {
			continue
		}
		if n, ok := counted(cmp, exit, l, b, decisive); ok {
			return Bound{Kind: BoundConst, N: n}
		}
		bound = Bound{Kind: BoundVar}
	}
	return bound
}

// changesInLoop reports whether v is a counter the loop steps: a phi at its header, a value
// computed from one, or a load of memory that the loop stores a sum or difference into.
func changesInLoop(v ssa.Value, l *loops.Loop) bool {
	found := false
	flow.Backward(v, 16, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Phi:
			found = found || x.Block() == l.Header
		case *ssa.UnOp:
			if x.Op == token.MUL && storesStep(x.X, l) {
				found = true
			}
		case *ssa.Call:
			return false
		}
		return !found
	})
	return found
}

// storesStep reports whether the loop stores addr's value plus or minus something into addr.
func storesStep(addr ssa.Value, l *loops.Loop) bool {
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if st, ok := r.(*ssa.Store); ok && st.Addr == addr && l.Contains(st.Block()) {
			if bin, ok := st.Val.(*ssa.BinOp); ok && (bin.Op == token.ADD || bin.Op == token.SUB) {
				return true
			}
		}
	}
	return false
}

// counted computes the number of attempts of a loop whose exit (successor index exit of
// block b) is decided by cmp, a comparison of a counter phi against a constant.
func counted(cmp *ssa.BinOp, exit int, l *loops.Loop, b *ssa.BasicBlock, decisive ssa.CallInstruction) (int, bool) {
	x, y, op := cmp.X, cmp.Y, cmp.Op
	if _, ok := flow.IntConst(x); ok {
		x, y, op = y, x, mirror(op)
	}
	limit, ok := flow.IntConst(y)
	if !ok {
		return 0, false
	}
	// The counter: a phi at the header, or the stepped value that feeds it.
	var phi *ssa.Phi
	var offset int64
	switch v := flow.Unwrap(x).(type) {
	case *ssa.Phi:
		phi = v
	case *ssa.BinOp:
		if p, ok := flow.Unwrap(v.X).(*ssa.Phi); ok {
			if k, ok := flow.IntConst(v.Y); ok && (v.Op == token.ADD || v.Op == token.SUB) {
				phi, offset = p, k
				if v.Op == token.SUB {
					offset = -k
				}
			}
		}
	}
	if phi == nil || phi.Block() != l.Header || len(phi.Edges) != len(l.Header.Preds) {
		return 0, false
	}
	var start, step int64
	var haveStart, haveStep bool
	for i, e := range phi.Edges {
		if l.Contains(l.Header.Preds[i]) {
			s, ok := e.(*ssa.BinOp)
			if !ok || flow.Unwrap(s.X) != phi {
				return 0, false
			}
			k, ok := flow.IntConst(s.Y)
			if !ok || k == 0 || (s.Op != token.ADD && s.Op != token.SUB) {
				return 0, false
			}
			if s.Op == token.SUB {
				k = -k
			}
			if haveStep && k != step {
				return 0, false
			}
			step, haveStep = k, true
		} else {
			k, ok := flow.IntConst(e)
			if !ok || haveStart && k != start {
				return 0, false
			}
			start, haveStart = k, true
		}
	}
	if !haveStart || !haveStep {
		return 0, false
	}
	// Count the values of the counter for which the loop goes on.
	n := 0
	for v := start; n <= maxCount; v += step {
		holds := constant.Compare(constant.MakeInt64(v+offset), op, constant.MakeInt64(limit))
		if holds == (exit == 0) {
			break
		}
		n++
	}
	if n > maxCount {
		return 0, false
	}
	// An exit tested after the call lets one more attempt run.
	if decisive != nil && decisive.Block() != b && decisive.Block().Dominates(b) {
		n++
	}
	return n, true
}

const maxCount = 10000

// sleeps returns the waiting calls among calls, each with the kind of its delay.
func sleeps(calls []ssa.CallInstruction, l *loops.Loop) []Sleep {
	var out []Sleep
	for _, c := range calls {
		d := sleepDuration(c)
		if d == nil {
			continue
		}
		out = append(out, Sleep{Call: c, Duration: d, Kind: delayKind(d, l)})
	}
	return out
}

// sleepDuration returns the duration argument when call waits: time.Sleep, time.After,
// time.NewTimer, time.Tick, a timer's Reset, or a function (or func value) with "sleep",
// "wait", "delay", "backoff" or "pause" in its name and a time.Duration parameter, unless it
// returns a time.Duration (it computes the delay rather than waiting).
func sleepDuration(call ssa.CallInstruction) ssa.Value {
	c := call.Common()
	args := c.Args
	if fn := flow.Callee(c); fn != nil && flow.ID(fn).Pkg == "time" {
		id := flow.ID(fn)
		switch {
		case id.Recv == "" && oneOf(id.Name, "Sleep", "After", "NewTimer", "Tick", "NewTicker", "AfterFunc"):
			if len(args) > 0 {
				return args[0]
			}
		case id.Recv == "Timer" && id.Name == "Reset", id.Recv == "Ticker" && id.Name == "Reset":
			if len(args) > 1 {
				return args[1]
			}
		}
		return nil
	}
	if res := c.Signature().Results(); res.Len() > 0 && typeis.Duration(res.At(0).Type()) {
		return nil // it computes a delay (nextSleep, backoffDuration); the caller waits
	}
	name := strings.ToLower(calleeName(c))
	waits := false
	for _, w := range []string{"sleep", "wait", "delay", "backoff", "pause"} {
		waits = waits || strings.Contains(name, w)
	}
	if !waits {
		return nil
	}
	for _, a := range args {
		if typeis.Duration(a.Type()) {
			return a
		}
	}
	return nil
}

// channelWaits returns the waits on channels of time.Time in the blocks (a ticker's or
// timer's C, time.After's result, a method returning one): when the channel comes from
// time.NewTimer or NewTicker made outside the blocks, a Sleep with its duration; when it comes
// from one made inside them, or from time.After, nothing (sleeps counts that call); otherwise
// one more wait the model cannot see.
func channelWaits(fn *ssa.Function, in func(*ssa.BasicBlock) bool, l *loops.Loop) (extra []Sleep, unknown int) {
	wait := func(instr ssa.Instruction, ch ssa.Value) {
		if !typeis.TimeChan(ch.Type()) {
			return
		}
		maker := timeChanMaker(ch)
		switch {
		case maker == nil:
			unknown++
		case in(maker.Block()):
		default:
			d := maker.Call.Args[0]
			extra = append(extra, Sleep{Call: maker, Duration: d, Kind: delayKind(d, l)})
		}
	}
	for _, b := range fn.Blocks {
		if !in(b) {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW {
					wait(x, x.X)
				}
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.RecvOnly {
						wait(x, st.Chan)
					}
				}
			}
		}
	}
	return extra, unknown
}

// timeChanMaker returns the time.NewTimer, NewTicker, After or Tick call that made ch (a
// result, or the C field of one), or nil.
func timeChanMaker(ch ssa.Value) *ssa.Call {
	v := flow.Unwrap(ch)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			v = fa.X
		}
	}
	var maker *ssa.Call
	flow.Backward(v, 16, func(x ssa.Value) bool {
		if call, ok := x.(*ssa.Call); ok {
			id := flow.ID(flow.Callee(call.Common()))
			if id.Pkg == "time" && id.Recv == "" && oneOf(id.Name, "NewTimer", "NewTicker", "After", "Tick") && len(call.Call.Args) == 1 {
				maker = call
			}
			return false
		}
		return maker == nil
	})
	return maker
}

// delayKind classifies a delay: jittered when a random source or a jitter function computes
// it, backoff when it grows with the attempts, unknown when an opaque call computes it, fixed
// otherwise.
func delayKind(d ssa.Value, l *loops.Loop) WaitKind {
	return delayKindIn(d, l, 0)
}

// delayKindIn is delayKind looking depth calls deep into the package's own functions and
// literals that compute a delay (a local backoff(attempt) closure).
func delayKindIn(d ssa.Value, l *loops.Loop, depth int) WaitKind {
	random, grows, opaque := false, false, false
	flow.Backward(d, 128, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Call:
			if body := delayFunc(x.Common()); body != nil && depth < 2 {
				kind, fromParams := returnedDelay(body, depth+1)
				switch kind {
				case WaitJittered:
					random = true
				case WaitBackoff:
					grows = true
				case WaitUnknown:
					opaque = true
				}
				// A delay computed from the arguments (the attempt number) changes with them.
				return kind == WaitFixed && fromParams
			}
			fn := flow.Callee(x.Common())
			if fn == nil {
				opaque = true
				return true
			}
			id := flow.ID(fn)
			name := strings.ToLower(id.Name)
			switch {
			case id.Pkg == "math/rand" || id.Pkg == "math/rand/v2" || id.Pkg == "crypto/rand" ||
				strings.Contains(name, "jitter") || strings.Contains(name, "rand"):
				random = true
			case id.Pkg == "math" && id.Name == "Pow":
				grows = true
			case id.Pkg == "time" || id.Pkg == "math":
			default:
				opaque = true
			}
		case *ssa.BinOp:
			if x.Op == token.SHL {
				grows = true
			}
			if l != nil && (x.Op == token.MUL || x.Op == token.ADD) && (loopCarried(x.X, l) || loopCarried(x.Y, l)) {
				grows = true
			}
		case *ssa.Phi:
			if l != nil && x.Block() == l.Header {
				grows = true // a delay carried from one attempt to the next changes
			}
		}
		return true
	})
	switch {
	case random:
		return WaitJittered
	case opaque:
		return WaitUnknown
	case grows:
		return WaitBackoff
	}
	return WaitFixed
}

// delayFunc returns the body of a function of this package, or a function literal, that a
// call computing a delay runs (its first result is a time.Duration, as in (time.Duration,
// error)); nil for other calls and for methods called through interfaces.
func delayFunc(c *ssa.CallCommon) *ssa.Function {
	if c.IsInvoke() {
		return nil
	}
	var fn *ssa.Function
	flow.Backward(c.Value, 16, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Function:
			fn = x
		case *ssa.MakeClosure:
			fn, _ = x.Fn.(*ssa.Function)
		}
		return fn == nil
	})
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() == 0 || !typeis.Duration(fn.Signature.Results().At(0).Type()) {
		return nil
	}
	return fn
}

// returnedDelay classifies the durations fn returns as delayKind does, all paths together
// (as a phi of them would be): jittered if one is, else unknown, else backoff, else fixed. It
// also says whether they are computed from fn's parameters other than its receiver.
func returnedDelay(fn *ssa.Function, depth int) (kind WaitKind, fromParams bool) {
	kind = WaitFixed
	for _, b := range fn.Blocks {
		ret, ok := last(b).(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		switch k := delayKindIn(ret.Results[0], nil, depth); {
		case k == WaitJittered:
			return k, false
		case k == WaitUnknown, k == WaitBackoff && kind != WaitUnknown:
			kind = k
		}
		flow.Backward(ret.Results[0], 64, func(x ssa.Value) bool {
			p, isParam := x.(*ssa.Parameter)
			fromParams = fromParams || isParam && (fn.Signature.Recv() == nil || p != fn.Params[0])
			return !fromParams
		})
	}
	return kind, fromParams
}

// combineWaits summarises the sleeps of a scope: none, or the weakest kind among them; other
// waits (on a timer's channel) make it unknown.
func combineWaits(ss []Sleep, others int) WaitKind {
	if len(ss) == 0 && others == 0 {
		return WaitNone
	}
	if others > 0 {
		return WaitUnknown
	}
	kind := WaitJittered
	for _, s := range ss {
		switch {
		case s.Kind == WaitUnknown:
			return WaitUnknown
		case s.Kind < kind:
			kind = s.Kind
		}
	}
	return kind
}

// observesDeadline says whether calls check a context, pass a context on to a fallible call
// (one that returns an error; a logger does not count), or check the time. A context made
// from context.Background, TODO or WithoutCancel, with no deadline or cancellation added,
// bounds nothing.
func observesDeadline(calls []ssa.CallInstruction) DeadlineKind {
	kind := DeadlineNone
	for _, call := range calls {
		c := call.Common()
		id := flow.ID(flow.Callee(c))
		if id.Pkg == "time" && (id.Recv == "" && oneOf(id.Name, "Since", "Until") ||
			id.Recv == "Time" && oneOf(id.Name, "After", "Before", "Compare", "Sub")) {
			kind = DeadlineElapsed
		}
		if id.Pkg == "context" && id.Recv == "Context" && oneOf(id.Name, "Done", "Err", "Deadline") && bounded(c.Value) {
			return DeadlineContext
		}
		if !typeis.ReturnsError(c.Signature()) {
			continue
		}
		for _, a := range c.Args {
			if typeis.Context(a.Type()) && bounded(a) {
				return DeadlineContext
			}
		}
	}
	return kind
}

// bounded reports whether a context may carry a deadline or cancellation: anything but one
// built only from context.Background, TODO and WithoutCancel (and values added to them).
func bounded(ctx ssa.Value) bool {
	unbounded, other := false, false
	flow.Backward(ctx, 64, func(x ssa.Value) bool {
		call, ok := x.(*ssa.Call)
		if !ok {
			if _, isParam := x.(*ssa.Parameter); isParam {
				other = true
			}
			return true
		}
		id := flow.ID(flow.Callee(call.Common()))
		switch {
		case id.Pkg == "context" && oneOf(id.Name, "Background", "TODO", "WithoutCancel"):
			unbounded = true
			return false
		case id.Pkg == "context" && id.Name == "WithValue":
			return true
		}
		other = true
		return false
	})
	return other || !unbounded
}
