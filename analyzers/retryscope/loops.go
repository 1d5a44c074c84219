package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// A decision is a branch on the outcome of a call: one successor is taken on success.
type decision struct {
	block   *ssa.BasicBlock // ends with the If
	call    ssa.CallInstruction
	success int // index of the successor taken on success
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
			ds = append(ds, decision{block: b, call: call, success: success})
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
	case *ssa.BinOp:
		x, y := c.X, c.Y
		if isNil(x) {
			x, y = y, x
		}
		if isNil(y) && isError(x.Type()) && (c.Op == token.EQL || c.Op == token.NEQ) {
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

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

func isError(t types.Type) bool {
	return types.IsInterface(t) && types.Implements(t, errorType)
}

// retryLoop reports whether loop l retries: a call in it is tested, and the loop leaves on
// success and goes round on failure. Leaving on success means: from the success side, control
// can leave the loop by an edge that the failure side cannot reach (so a loop whose two sides
// merge before leaving, or that leaves only when a later call fails, is not a retry), without
// going through the failure side of another test. And the call must not be made on a
// different element each time round (iteration over a collection is not retry).
func retryLoop(fn *ssa.Function, l *flow.Loop) (decisive ssa.CallInstruction, ok bool) {
	ds := decisions(fn, l.Contains)
	for _, d := range ds {
		succ, fail := d.block.Succs[d.success], d.block.Succs[1-d.success]
		if !l.CanRepeat(fail) {
			continue
		}
		otherFailures := func(e flow.Edge) bool {
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
			return d.call, true
		}
	}
	return nil, false
}

// iterates reports whether the call's arguments are indexed by a value that changes every
// time round the loop (items[i]): the loop walks a collection.
func iterates(call ssa.CallInstruction, l *flow.Loop) bool {
	c := call.Common()
	args := append([]ssa.Value{c.Value}, c.Args...)
	found := false
	for _, a := range args {
		flow.Backward(a, 64, func(x ssa.Value) bool {
			var index ssa.Value
			switch x := x.(type) {
			case *ssa.Index:
				index = x.Index
			case *ssa.IndexAddr:
				index = x.Index
			case *ssa.Lookup:
				index = x.Index
			}
			if index != nil && loopCarried(index, l) {
				found = true
			}
			return !found
		})
	}
	return found
}

// loopCarried reports whether v is (a conversion of) a phi at the loop's header.
func loopCarried(v ssa.Value, l *flow.Loop) bool {
	phi, ok := flow.Unwrap(v).(*ssa.Phi)
	return ok && phi.Block() == l.Header
}

// loopBound finds what limits the attempts of a retry loop: an exit that compares a counter
// stepped in the loop against a limit.
func loopBound(fn *ssa.Function, l *flow.Loop, decisive ssa.CallInstruction) Bound {
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
		if !ok || !isInteger(cmp.X.Type()) {
			continue
		}
		if call, _ := outcome(cmp, l.Contains); call != nil {
			continue // a status check decides success, not the number of attempts
		}
		if isDuration(cmp.X.Type()) || !changesInLoop(cmp.X, l) && !changesInLoop(cmp.Y, l) {
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
func changesInLoop(v ssa.Value, l *flow.Loop) bool {
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
func storesStep(addr ssa.Value, l *flow.Loop) bool {
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

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// counted computes the number of attempts of a loop whose exit (successor index exit of
// block b) is decided by cmp, a comparison of a counter phi against a constant.
func counted(cmp *ssa.BinOp, exit int, l *flow.Loop, b *ssa.BasicBlock, decisive ssa.CallInstruction) (int, bool) {
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
func sleeps(calls []ssa.CallInstruction, l *flow.Loop) []Sleep {
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
// time.NewTimer, time.Tick, a timer's Reset, or an in-house function with "sleep", "backoff"
// or "pause" in its name and a time.Duration parameter.
func sleepDuration(call ssa.CallInstruction) ssa.Value {
	c := call.Common()
	fn := flow.Callee(c)
	if fn == nil {
		return nil
	}
	id := flow.ID(fn)
	args := c.Args
	if id.Pkg == "time" {
		switch {
		case id.Recv == "" && oneOf(id.Name, "Sleep", "After", "NewTimer", "Tick", "NewTicker"):
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
	name := strings.ToLower(id.Name)
	if !strings.Contains(name, "sleep") && !strings.Contains(name, "backoff") && !strings.Contains(name, "pause") {
		return nil
	}
	for _, a := range args {
		if isDuration(a.Type()) {
			return a
		}
	}
	return nil
}

func isDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// delayKind classifies a delay: jittered when a random source or a jitter function computes
// it, backoff when it grows with the attempts, unknown when an opaque call computes it, fixed
// otherwise.
func delayKind(d ssa.Value, l *flow.Loop) WaitKind {
	random, grows, opaque := false, false, false
	flow.Backward(d, 128, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Call:
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

// combineWaits summarises the sleeps of a scope: none, or the weakest kind among them.
func combineWaits(ss []Sleep) WaitKind {
	if len(ss) == 0 {
		return WaitNone
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

// observesDeadline says whether calls check a context, pass one on, or check the time.
func observesDeadline(calls []ssa.CallInstruction) DeadlineKind {
	kind := DeadlineNone
	for _, call := range calls {
		c := call.Common()
		id := flow.ID(flow.Callee(c))
		if id.Pkg == "time" && (id.Recv == "" && oneOf(id.Name, "Since", "Until") ||
			id.Recv == "Time" && oneOf(id.Name, "After", "Before", "Compare", "Sub")) {
			kind = DeadlineElapsed
		}
		if id.Pkg == "context" && id.Recv == "Context" {
			return DeadlineContext
		}
		for _, a := range c.Args {
			if isContext(a.Type()) {
				return DeadlineContext
			}
		}
	}
	return kind
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}
