package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"slices"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// loopBound finds what limits the attempts of a retry loop: an exit that compares a counter
// stepped in the loop against a limit.
func (st *state) loopBound(fn *ssa.Function, l *loops.Loop, decisive ssa.CallInstruction) Bound {
	bound := Bound{Kind: BoundNone}
	for b, cmp := range intTests(fn, l) {
		if call, _, _ := outcome(cmp, l.Contains); call != nil {
			continue // a status check decides success, not the number of attempts
		}
		growing := typeis.Duration(cmp.X.Type()) && (grows(cmp.X, l) && isConst(cmp.Y) || grows(cmp.Y, l) && isConst(cmp.X))
		if !growing && (typeis.Duration(cmp.X.Type()) || !st.stepsInLoop(cmp.X, l) && !st.stepsInLoop(cmp.Y, l)) {
			continue // a time check, or a comparison of values the loop does not step
		}
		exit := exitSide(b, l)
		if exit < 0 {
			continue
		}
		if growing {
			// backoff = backoff + backoff/2; if backoff > maxBackoff { return }: a wait that
			// grows each round up to a constant ends the loop after a few rounds.
			bound = Bound{Kind: BoundVar}
			continue
		}
		if n, ok := counted(cmp, exit, l, b, decisive, st.stores); ok {
			return Bound{Kind: BoundConst, N: n}
		}
		bound = Bound{Kind: BoundVar}
		limit := cmp.Y
		if st.stepsInLoop(cmp.Y, l) {
			limit = cmp.X
		}
		if fv := loadedField(limit); fv != nil && fv.Pkg() != nil {
			bound = bound.InField(fv)
		}
	}
	if bound.Kind == BoundNone && decisive != nil && countingVerdict(decisive) {
		return Bound{Kind: BoundVar} // the verdict counts the attempts and gives up
	}
	if bound.Kind == BoundNone && onceMore(fn, l) {
		return Bound{Kind: BoundConst, N: 2}
	}
	if bound.Kind == BoundNone && (opaqueExit(fn, l, decisive) || st.refusedExit(fn, l)) {
		return Bound{Kind: BoundUnknown}
	}
	return bound
}

// grows reports whether v is a phi at the loop's header that every way round makes larger
// from itself: a sum, product or shift with itself as an operand (d = d + d/2, d *= 2,
// d <<= 1).
func grows(v ssa.Value, l *loops.Loop) bool {
	growth := func(x ssa.Value, phi *ssa.Phi) bool {
		bin, ok := flow.Unwrap(x).(*ssa.BinOp)
		return ok && (bin.Op == token.ADD || bin.Op == token.MUL || bin.Op == token.SHL) && (flow.Unwrap(bin.X) == phi || flow.Unwrap(bin.Y) == phi)
	}
	phi, ok := flow.Unwrap(v).(*ssa.Phi)
	if bin, isBin := flow.Unwrap(v).(*ssa.BinOp); isBin {
		// The value compared is the next one (d *= 2; if d > max { return }).
		for _, x := range []ssa.Value{bin.X, bin.Y} {
			if p, isPhi := flow.Unwrap(x).(*ssa.Phi); isPhi && growth(v, p) {
				phi, ok = p, true
			}
		}
	}
	if !ok || phi.Block() != l.Header {
		return false
	}
	back := 0
	for i, e := range phi.Edges {
		if i >= len(l.Header.Preds) || !l.Contains(l.Header.Preds[i]) {
			continue
		}
		if !growth(e, phi) {
			return false
		}
		back++
	}
	return back > 0
}

// isConst reports whether v is a constant number.
func isConst(v ssa.Value) bool {
	_, ok := flow.IntConst(v)
	return ok
}

// exitSide returns the successor of block b that leaves loop l for good, or -1.
func exitSide(b *ssa.BasicBlock, l *loops.Loop) int {
	exit := -1
	for i, s := range b.Succs {
		if l.CanExit(s) && !l.CanRepeat(s) {
			exit = i
		}
	}
	return exit
}

// loadedField returns the struct field whose value v is (a load of it, converted, with a
// constant added: retries + 1, or clamped: max(retries, 0)), or nil.
func loadedField(v ssa.Value) *types.Var { return loadedFieldIn(v, 0) }

func loadedFieldIn(v ssa.Value, depth int) *types.Var {
	if depth > 3 {
		return nil // a phi of phis: a loop's own variable
	}
	for range 4 {
		v = flow.Unwrap(v)
		switch x := v.(type) {
		case *ssa.BinOp:
			if _, ok := flow.IntConst(x.Y); ok {
				v = x.X
				continue
			}
			if _, ok := flow.IntConst(x.X); ok {
				v = x.Y
				continue
			}
			return nil
		case *ssa.UnOp:
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
				return flow.FieldVar(fa)
			}
			return nil
		case *ssa.Phi:
			// The setting on some ways, zero on the others (var n int; if retryable { n =
			// c.MaxRetries }): zero by default either way.
			var field *types.Var
			for _, e := range x.Edges {
				if k, ok := flow.IntConst(e); ok && k == 0 {
					continue
				}
				fv := loadedFieldIn(e, depth+1)
				if fv == nil || field != nil && fv != field {
					return nil
				}
				field = fv
			}
			return field
		case *ssa.Call:
			// A clamp: max(n, 0), maxInt(n, 0), min(n, 10): its one argument that is not a
			// constant.
			if !clamp(x.Common()) {
				return nil
			}
			var arg ssa.Value
			for _, a := range x.Call.Args {
				if _, ok := flow.IntConst(a); ok {
					continue
				}
				if arg != nil {
					return nil
				}
				arg = a
			}
			if arg == nil || !typeis.Integer(arg.Type()) {
				return nil
			}
			v = arg
		default:
			return nil
		}
	}
	return nil
}

// clamp reports whether c is a call of the builtin max or min, or of a function each of whose
// results is one of its parameters (maxInt(a, b)).
func clamp(c *ssa.CallCommon) bool {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		return b.Name() == "max" || b.Name() == "min"
	}
	fn := c.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 {
		return false
	}
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if _, param := flow.Unwrap(ret.Results[0]).(*ssa.Parameter); !param {
				return false
			}
		}
	}
	return true
}

// onceMore reports whether a flag lets the loop go round only once: a boolean that enters the
// loop as one constant and comes back round as the other (retried := false; ...; retried =
// true; goto start), tested in the loop on every way round (a test reached only after one
// kind of error bounds only that kind) with the side where it has its second value unable to
// go round again (if !retried && unsupported(err) { ...; goto start }).
func onceMore(fn *ssa.Function, l *loops.Loop) bool {
	for _, b := range fn.Blocks {
		if !l.Contains(b) || len(b.Instrs) == 0 || !onEveryRound(b, l) {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cond := unNot(ifInstr.Cond)
		negated := countNots(ifInstr.Cond)%2 == 1
		phi, ok := cond.(*ssa.Phi)
		if !ok || phi.Block() != l.Header || !typeis.Bool(phi.Type()) {
			continue
		}
		first, again, ok := flagValues(phi, l)
		if !ok || first == again {
			continue
		}
		taken := 0 // the successor taken when the flag has its second value
		if again == negated {
			taken = 1
		}
		if !l.CanRepeat(b.Succs[taken]) {
			return true
		}
	}
	return false
}

// onEveryRound reports whether every way round the loop passes through b: b dominates each
// block of the loop that goes back to its header.
func onEveryRound(b *ssa.BasicBlock, l *loops.Loop) bool {
	for _, p := range l.Header.Preds {
		if l.Contains(p) && !b.Dominates(p) {
			return false
		}
	}
	return true
}

// countNots counts the logical negations around v.
func countNots(v ssa.Value) int {
	n := 0
	for {
		u, ok := v.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			return n
		}
		n, v = n+1, u.X
	}
}

// flagValues returns the constant a boolean phi at the loop's header has on entry and the one
// it has coming back round, when each is a single constant.
func flagValues(phi *ssa.Phi, l *loops.Loop) (first, again, ok bool) {
	seenFirst, seenAgain := false, false
	for i, e := range phi.Edges {
		v, isConst := flow.BoolConst(e)
		if !isConst {
			return false, false, false
		}
		if l.Contains(phi.Block().Preds[i]) {
			if seenAgain && v != again {
				return false, false, false
			}
			again, seenAgain = v, true
		} else {
			if seenFirst && v != first {
				return false, false, false
			}
			first, seenFirst = v, true
		}
	}
	return first, again, seenFirst && seenAgain
}

// opaqueExit reports whether the loop can be left on a verdict the model cannot read: a
// boolean from a call it cannot see into (wait, more := b.Next(n); if !more { return }), or
// another package's answer compared with its sentinel (b.NextBackOff() == backoff.Stop), other
// than a test of the decisive call's outcome or of a context, or a plain function of values
// that cannot count (countless: isConflict(err)). Such a policy may count the attempts itself,
// so "unbounded" would not be certain.
func opaqueExit(fn *ssa.Function, l *loops.Loop, decisive ssa.CallInstruction) bool {
	for ifInstr := range exitTests(fn, l) {
		opaque := false
		flow.Backward(ifInstr.Cond, 32, func(x ssa.Value) bool {
			// next := b.NextBackOff(); if next == backoff.Stop { return }: a policy of another
			// package answering with its sentinel value.
			if cmp, ok := x.(*ssa.BinOp); ok && (cmp.Op == token.EQL || cmp.Op == token.NEQ) {
				for _, pair := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
					c, isCall := flow.Unwrap(pair[0]).(*ssa.Call)
					if _, isConst := pair[1].(*ssa.Const); !isConst || !isCall || c == decisive || !l.Contains(c.Block()) {
						continue
					}
					if f := flow.Callee(c.Common()); f != nil && f.Pkg() != nil && f.Pkg() != fn.Pkg.Pkg && !ssapkg.IsStdPath(f.Pkg().Path()) && !typeis.ErrorLike(c.Type()) {
						opaque = true
					}
				}
				if opaque {
					return false
				}
			}
			call, ok := x.(*ssa.Call)
			if !ok {
				return true
			}
			id := flow.ID(flow.Callee(call.Common()))
			if call != decisive && l.Contains(call.Block()) && id.Pkg != "context" && id.Pkg != "errors" && !knowledge.ErrorsTest(id) && id.Pkg != "time" &&
				call.Common().Signature().Results().Len() > 0 && slices.ContainsFunc(tupleTypes(call), typeis.Bool) && !countless(call) {
				opaque = true
			}
			return false
		})
		if opaque {
			return true
		}
	}
	return false
}

// exitTests yields the branches of loop l that can leave it: one side leaves and cannot come
// back round.
func exitTests(fn *ssa.Function, l *loops.Loop) iter.Seq[*ssa.If] {
	return func(yield func(*ssa.If) bool) {
		for _, b := range fn.Blocks {
			if !l.Contains(b) || len(b.Instrs) == 0 {
				continue
			}
			ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if ok && slices.ContainsFunc(b.Succs, func(s *ssa.BasicBlock) bool { return l.CanExit(s) && !l.CanRepeat(s) }) && !yield(ifInstr) {
				return
			}
		}
	}
}

// tupleTypes returns the types of a call's results.
func tupleTypes(call *ssa.Call) []types.Type {
	r := call.Common().Signature().Results()
	out := make([]types.Type, r.Len())
	for i := range out {
		out[i] = r.At(i).Type()
	}
	return out
}

// stepsInLoop reports whether v is a counter the loop steps: changesInLoop, or a counter a
// value keeps that the loop steps through its methods (steppedCounter).
func (st *state) stepsInLoop(v ssa.Value, l *loops.Loop) bool {
	return changesInLoop(v, l) || st.steppedCounter(v, l)
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

// storesStep reports whether the loop stores addr's value plus or minus something into addr,
// or into the same field of the same struct (for p.attempts > 0 { ...; p.attempts-- } takes
// the field's address anew at each use).
func storesStep(addr ssa.Value, l *loops.Loop) bool {
	fn := addr.Parent()
	return fn != nil && (storesStepIn(addr, l.Blocks(fn)) || stepsThroughCall(addr, l.Blocks(fn)))
}

// stepsThroughCall reports whether a call in blocks hands addr to a function of the package
// that steps what its parameter points to (waitReconnect(timeout, &retries, err), which sleeps
// and does *retries++): the counter counts the rounds that pass through that call.
func stepsThroughCall(addr ssa.Value, blocks []*ssa.BasicBlock) bool {
	for call := range flow.BlockCalls(blocks) {
		callee := call.Common().StaticCallee()
		if callee == nil || callee.Pkg != call.Parent().Pkg || len(callee.Blocks) == 0 {
			continue
		}
		for i, a := range call.Common().Args {
			if i < len(callee.Params) && sameSlot(a, addr) && storesStepIn(callee.Params[i], callee.Blocks) {
				return true
			}
		}
	}
	return false
}

// storesStepIn reports whether blocks store addr's value plus or minus something back into
// the same place (sameSlot): n = n - 1 (n-- included), s.attempts[i] += 1; not n = other - 1.
func storesStepIn(addr ssa.Value, blocks []*ssa.BasicBlock) bool {
	for _, b := range blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !sameSlot(st.Addr, addr) {
				continue
			}
			if bin, ok := st.Val.(*ssa.BinOp); ok && (bin.Op == token.ADD || bin.Op == token.SUB) {
				for _, x := range []ssa.Value{bin.X, bin.Y} {
					if load, ok := flow.Unwrap(x).(*ssa.UnOp); ok && load.Op == token.MUL && sameSlot(load.X, addr) {
						return true
					}
				}
			}
		}
	}
	return false
}

// counted computes the number of attempts of a loop whose exit (successor index exit of
// block b) is decided by cmp, a comparison of a counter phi against a constant.
func counted(cmp *ssa.BinOp, exit int, l *loops.Loop, b *ssa.BasicBlock, decisive ssa.CallInstruction, stores *flow.Stores) (int, bool) {
	c, ok := counterOf(cmp, exit, l, stores)
	if !ok {
		return 0, false
	}
	n := 0
	for _, limit := range c.limits {
		vs, ok := c.rounds(limit)
		if !ok {
			return 0, false
		}
		n = max(n, len(vs))
	}
	// An exit tested after the call lets one more attempt run.
	if decisive != nil && decisive.Block() != b && decisive.Block().Dominates(b) {
		n++
	}
	return n, true
}

// A counter is a loop's count of its rounds: a phi at its header that starts at a constant
// and steps by one, and the exit test that compares it (plus offset) with a limit.
type counter struct {
	phi         *ssa.Phi
	offset      int64
	start, step int64
	op          token.Token
	exit        int       // the successor of the test that leaves the loop
	limit       ssa.Value // what the counter is compared with
	limits      []int64   // the constants limit can hold (n := 3; if anonymous { n++ })
}

// counterOf describes the counter that cmp, a loop test whose successor exit leaves the loop,
// compares with a limit.
func counterOf(cmp *ssa.BinOp, exit int, l *loops.Loop, stores *flow.Stores) (*counter, bool) {
	x, y, op := cmp.X, cmp.Y, cmp.Op
	if _, ok := flow.IntConst(x); ok {
		x, y, op = y, x, mirror(op)
	}
	c := &counter{op: op, exit: exit, limit: flow.Unwrap(y), limits: flow.IntConsts(y, stores)}
	if c.limits == nil {
		return nil, false
	}
	// The counter: a phi at the header, or the stepped value that feeds it.
	switch v := flow.Unwrap(x).(type) {
	case *ssa.Phi:
		c.phi = v
	case *ssa.BinOp:
		if p, ok := flow.Unwrap(v.X).(*ssa.Phi); ok {
			if k, ok := flow.IntConst(v.Y); ok && (v.Op == token.ADD || v.Op == token.SUB) {
				c.phi, c.offset = p, k
				if v.Op == token.SUB {
					c.offset = -k
				}
			}
		}
	}
	if c.phi == nil || c.phi.Block() != l.Header || len(c.phi.Edges) != len(l.Header.Preds) {
		return nil, false
	}
	var haveStart, haveStep bool
	for i, e := range c.phi.Edges {
		if l.Contains(l.Header.Preds[i]) {
			s, ok := e.(*ssa.BinOp)
			if !ok || flow.Unwrap(s.X) != c.phi {
				return nil, false
			}
			k, ok := flow.IntConst(s.Y)
			if !ok || k == 0 || (s.Op != token.ADD && s.Op != token.SUB) {
				return nil, false
			}
			if s.Op == token.SUB {
				k = -k
			}
			if haveStep && k != c.step {
				return nil, false
			}
			c.step, haveStep = k, true
		} else {
			k, ok := flow.IntConst(e)
			if !ok || haveStart && k != c.start {
				return nil, false
			}
			c.start, haveStart = k, true
		}
	}
	return c, haveStart && haveStep
}

// rounds returns the values of the counter's phi for which its test goes on when the limit is
// limit: those of the rounds, when the loop tests it at the top.
func (c *counter) rounds(limit int64) ([]int64, bool) {
	var vs []int64
	for v := c.start; len(vs) <= maxCount; v += c.step {
		holds := constant.Compare(constant.MakeInt64(v+c.offset), c.op, constant.MakeInt64(limit))
		if holds == (c.exit == 0) {
			return vs, true
		}
		vs = append(vs, v)
	}
	return nil, false
}

// lastRound reports whether the edge from block from to its successor to is taken only on the
// last round of loop l, as its count decides: if i < maxAttempts-1 { prepare the next attempt }
// goes on to the header without preparing only when the loop is about to end.
func (st *state) lastRound(fn *ssa.Function, l *loops.Loop, from, to *ssa.BasicBlock) bool {
	ifInstr, ok := from.Instrs[len(from.Instrs)-1].(*ssa.If)
	if !ok || from.Succs[0] == from.Succs[1] {
		return false
	}
	side := slices.Index(from.Succs, to)
	for b, cmp := range intTests(fn, l) {
		exit := exitSide(b, l)
		if exit < 0 {
			continue
		}
		c, ok := counterOf(cmp, exit, l, st.stores)
		if !ok {
			continue
		}
		taken := false
		for _, limit := range c.limits {
			vs, ok := c.rounds(limit)
			if !ok {
				return false
			}
			if b != l.Header {
				// Tested at the end of a round: the first round has the start, and each
				// value the test goes on with is followed by a round with the next.
				next := []int64{c.start}
				for _, v := range vs {
					next = append(next, v+c.step)
				}
				vs = next
			}
			for k, v := range vs {
				holds, ok := evalCond(ifInstr.Cond, map[ssa.Value]int64{c.phi: v, c.limit: limit})
				if !ok {
					return false
				}
				if (holds == (side == 0)) && k < len(vs)-1 {
					return false // taken on a round that another one follows
				}
				taken = taken || holds == (side == 0)
			}
		}
		return taken
	}
	return false
}

// evalCond computes a comparison of integers (with its negations) from the values env gives.
func evalCond(cond ssa.Value, env map[ssa.Value]int64) (bool, bool) {
	negated := countNots(cond)%2 == 1
	cmp, ok := unNot(cond).(*ssa.BinOp)
	if !ok {
		return false, false
	}
	x, okX := flow.EvalInt(cmp.X, env)
	y, okY := flow.EvalInt(cmp.Y, env)
	if !okX || !okY {
		return false, false
	}
	switch cmp.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return constant.Compare(constant.MakeInt64(x), cmp.Op, constant.MakeInt64(y)) != negated, true
	}
	return false, false
}

const maxCount = 10000

// Product is the attempts of layers nested one inside another: the product of their caps when
// all are constants; unbounded when one has none; otherwise unknown, or variable when a
// run-time setting is the only unknown.
func Product(bs ...Bound) Bound {
	p := Bound{Kind: BoundConst, N: 1}
	for _, b := range bs {
		switch {
		case b.Kind == BoundNone:
			return Bound{Kind: BoundNone}
		case b.Kind == BoundUnknown:
			p = Bound{Kind: BoundUnknown}
		case b.Kind == BoundVar && p.Kind == BoundConst:
			p = Bound{Kind: BoundVar}
		case b.Kind == BoundConst && p.Kind == BoundConst:
			p.N *= b.N
		}
	}
	return p
}

// CallCount is the scope's attempts as a count of calls: a scope with no cap but an overall
// deadline stops in time, so the count is unknown rather than unbounded.
func (s *Scope) CallCount() Bound {
	b := s.Attempts
	if b.Kind == BoundNone && s.Deadline != DeadlineNone {
		b.Kind = BoundUnknown
	}
	return b
}

// LongestWait is the longest the scope waits between two attempts, when the model knows it:
// no wait (0), or the largest of a hand-written scope's waits when each has a constant length
// (Sleep.Length; a jittered wait's length is a call, not a constant). ok is false when some
// wait's length is not known.
func (s *Scope) LongestWait() (d time.Duration, ok bool) {
	if s.Wait.Kind == WaitNone {
		return 0, true
	}
	if !s.Kind.HandWritten() || len(s.Wait.Sleeps) == 0 {
		return 0, false
	}
	for _, sl := range s.Wait.Sleeps {
		n, ok := sl.Length()
		if !ok {
			return 0, false
		}
		d = max(d, n)
	}
	return d, true
}

// Length is how long the wait lasts when a constant duration gives it (time.Sleep(2 *
// time.Second)); ok is false otherwise.
func (sl Sleep) Length() (time.Duration, bool) {
	d := sl.Duration
	if d == nil || !typeis.Duration(d.Type()) {
		return 0, false
	}
	n, ok := flow.IntConst(d)
	if !ok || n <= 0 {
		return 0, false
	}
	return time.Duration(n), true
}

// intTests yields the blocks of loop l that end in a branch on a comparison of integers, with
// the comparison.
func intTests(fn *ssa.Function, l *loops.Loop) iter.Seq2[*ssa.BasicBlock, *ssa.BinOp] {
	return func(yield func(*ssa.BasicBlock, *ssa.BinOp) bool) {
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
			if !yield(b, cmp) {
				return
			}
		}
	}
}

// OnceWith reports whether the loop of scope s, in the function call calls, runs once there:
// a test of a boolean parameter of that function, on every way round, leaves the loop for
// good on the value call passes as a constant (reconnect(ctx, true), whose loop returns the
// error when single is set: if single || ... { return err }).
func (s *Scope) OnceWith(call ssa.CallInstruction) bool {
	l, fn := s.Loop, s.Fn
	if l == nil || fn == nil || call.Common().StaticCallee() != fn {
		return false
	}
	args := call.Common().Args
	for _, b := range l.Blocks(fn) {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok || !onEveryRound(b, l) {
			continue
		}
		p, ok := ifInstr.Cond.(*ssa.Parameter)
		if !ok || p.Parent() != fn {
			continue
		}
		i := slices.Index(fn.Params, p)
		if i < 0 || i >= len(args) {
			continue
		}
		v, isConst := flow.BoolConst(args[i])
		if !isConst {
			continue
		}
		side := 0 // the successor taken on the value passed
		if !v {
			side = 1
		}
		if !l.CanRepeat(b.Succs[side]) && !l.Contains(b.Succs[side]) {
			return true
		}
	}
	return false
}
