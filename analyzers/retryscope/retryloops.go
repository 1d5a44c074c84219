package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// retryLoop reports whether loop l retries: a call in it is tested, and the loop leaves on
// success and goes round on failure. Leaving on success means: from the success side, control
// can leave the loop by an edge that the failure side cannot reach (so a loop whose two sides
// merge before leaving, or that leaves only when a later call fails, is not a retry), without
// going through the failure side of another test, and not only when the call yields nothing
// (a loop that goes round on each result and stops when none is left drains a source). And
// the call must not be made on a different element each time round (iteration over a
// collection is not retry).
func (st *state) retryLoop(fn *ssa.Function, l *loops.Loop) (d decision, ok bool) {
	d, kind := st.classifyLoop(fn, l)
	return d, kind == retrying
}

// The kinds of loop classifyLoop tells apart.
const (
	other     = iota
	retrying  // a retry loop (retryLoop)
	lifecycle // a long-running loop that tries a call again after it fails (Result.Lifecycles)
)

// classifyLoop finds what loop l is: a retry loop, with its decision; else a lifecycle, with the
// decision on the call it tries again after a failure, when it goes round on that failure
// after a wait (for { conn, err := dial(); if err != nil { sleep(5s); continue }; serve(conn) }:
// it never leaves on success, but every client of a restarted server comes back at once).
func (st *state) classifyLoop(fn *ssa.Function, l *loops.Loop) (decision, int) {
	ds := decisions(fn, l.Contains)
	// successExits returns the exits that control reaches from the success side of decision
	// d without going through the failure side of another test, through a cancellation,
	// through the answer that call has nothing more to give, or into a panic (such as a
	// blocking select's impossible fall-through).
	successExits := func(d decision) map[loops.Edge]bool {
		skip := func(e loops.Edge) bool {
			if e.From == d.block {
				return false
			}
			failure := false
			for _, o := range ds {
				if e.From == o.block {
					if e.To == o.block.Succs[o.success] {
						return false // a verdict of unknown sense has both sides as success
					}
					failure = true
				}
			}
			return failure || runsDry(e, d.call, l) || cancelled(e, l) || panics(e.To)
		}
		return l.ExitEdges(d.block, d.block.Succs[d.success], skip)
	}
	// Calls whose own tests all send their success round the loop, never out of it: the loop
	// keeps working after they succeed, whatever a verdict on their error says (for { err :=
	// session(); if err == nil { continue }; if failWait(err) { return } } runs a lifecycle).
	tested, leaves := make(map[ssa.CallInstruction]bool), make(map[ssa.CallInstruction]bool)
	for _, o := range ds {
		if !o.policy {
			tested[o.call] = true
			if len(successExits(o)) > 0 {
				leaves[o.call] = true
			}
		}
	}
	var again *decision
	for _, d := range ds {
		fail := d.block.Succs[1-d.success]
		if !l.CanRepeat(fail) {
			continue
		}
		if tested[d.call] && !leaves[d.call] {
			// The failure's own side must wait: not the loop's header, which a failure only
			// reaches to leave (for err == nil { ...; if err = extend(); err == nil {
			// timer.Reset(d) } } keeps a lease until it fails).
			if again == nil && !d.policy && fail != l.Header && !st.iterates(d.call, l) && waitsAfter(fn, fail, l.Contains) {
				again = &d
			}
			continue
		}
		onSuccess := successExits(d)
		onFailure := l.ExitEdges(d.block, fail, nil)
		distinct := false
		for e := range onSuccess {
			if !onFailure[e] {
				distinct = true
			}
		}
		if distinct && !st.iterates(d.call, l) {
			return d, retrying
		}
	}
	if again != nil {
		return *again, lifecycle
	}
	return decision{}, other
}

// cancelled reports whether edge e is taken when the work is called off: it leaves a select
// on the case of a context's Done or of a stop channel (a chan struct{} named for stopping:
// quit, stop, done), or on to the select's other cases when each of those is called off too
// or cannot happen, or it is a test of a context's Err (or Cause) against nil on its non-nil
// side. A loop that leaves on success only that way runs until it is stopped: periodic work,
// not a retry.
func cancelled(e loops.Edge, l *loops.Loop) bool {
	cmp := equality(e.From)
	if cmp == nil {
		return false
	}
	taken := 0 // the successor taken when the comparison holds
	if cmp.Op == token.NEQ {
		taken = 1
	}
	x, y := cmp.X, cmp.Y
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
	}
	k, isConst := y.(*ssa.Const)
	if !isConst {
		return false
	}
	if k.IsNil() {
		// ctx.Err() != nil, context.Cause(ctx) != nil: the non-nil side.
		call, ok := flow.Unwrap(x).(*ssa.Call)
		if !ok || flow.ID(flow.Callee(call.Common())).Pkg != "context" {
			return false
		}
		return e.To == e.From.Succs[1-taken]
	}
	idx, ok := x.(*ssa.Extract)
	if !ok || idx.Index != 0 {
		return false
	}
	sel, ok := idx.Tuple.(*ssa.Select)
	if !ok || cmp.Op != token.EQL {
		return false
	}
	if e.To == e.From.Succs[1] {
		// On to the select's next cases, in the block that tests them (the order of the cases
		// does not matter).
		return testsCase(e.To, idx) && cancelled(loops.Edge{From: e.To, To: e.To.Succs[0]}, l) &&
			(panics(e.To.Succs[1]) || cancelled(loops.Edge{From: e.To, To: e.To.Succs[1]}, l))
	}
	n, ok := flow.IntConst(k)
	if !ok || n < 0 || n >= int64(len(sel.States)) {
		return false
	}
	return signal(sel.States[n], l)
}

// testsCase reports whether block b ends in a test of which case of a select was chosen, idx
// being the chosen case's index.
func testsCase(b *ssa.BasicBlock, idx *ssa.Extract) bool {
	cmp := equality(b)
	return cmp != nil && cmp.Op == token.EQL && cmp.X == idx
}

// panics reports whether block b ends in a panic.
func panics(b *ssa.BasicBlock) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	return ok
}

// signal reports whether a select case receives from a context's Done or from a stop
// channel: a channel of struct{}, which only signals, that the loop's work does not produce
// (a field, a variable, a parameter: something another part of the program closes to call the
// work off). A signal that an attempt produces (ready, err := subscribe(); <-ready) says the
// work arrived: leaving on it is leaving on success.
func signal(st *ssa.SelectState, l *loops.Loop) bool {
	if st.Dir != types.RecvOnly {
		return false
	}
	if c, ok := flow.Unwrap(st.Chan).(*ssa.Call); ok && flow.ID(flow.Callee(c.Common())).Pkg == "context" {
		return true
	}
	if ch, ok := st.Chan.Type().Underlying().(*types.Chan); ok {
		if s, ok := ch.Elem().Underlying().(*types.Struct); ok && s.NumFields() == 0 {
			return !producedIn(st.Chan, l)
		}
	}
	return false
}

// producedIn reports whether v is computed from the result of a call made in the loop.
func producedIn(v ssa.Value, l *loops.Loop) bool {
	found := false
	flow.Backward(v, 16, func(x ssa.Value) bool {
		if c, ok := x.(*ssa.Call); ok && l.Contains(c.Block()) {
			found = true
		}
		return !found
	})
	return found
}

// equality returns the == or != comparison that block b branches on, or nil.
func equality(b *ssa.BasicBlock) *ssa.BinOp {
	if len(b.Instrs) == 0 {
		return nil
	}
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cmp, ok := ifInstr.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil
	}
	return cmp
}

// runsDry reports whether edge e is taken when call yields nothing: it leaves a comparison of
// one of call's results other than an error with nil, on the side where it is nil
// (results, err := p.getResults(); ... if results == nil { break }).
func runsDry(e loops.Edge, call ssa.CallInstruction, l *loops.Loop) bool {
	cmp := equality(e.From)
	if cmp == nil {
		return false
	}
	x, y := cmp.X, cmp.Y
	if flow.IsNil(x) {
		x, y = y, x
	}
	if !flow.IsNil(y) || typeis.ErrorLike(x.Type()) || producer(x, l.Contains) != call {
		return false
	}
	nilSide := 0
	if cmp.Op == token.NEQ {
		nilSide = 1
	}
	return e.To == e.From.Succs[nilSide]
}

// iterates reports whether the loop works through a sequence rather than repeating one
// operation: the call's arguments are taken from a collection or accessor by the loop's
// counter (items[i], v.Method(i)), or are the counter itself when it does not start at 0 or 1
// (for port := lo; port <= hi; port++), or come from a channel or from a call that consumes a
// source (Recv, Read, Next, Pop...), or are what the previous round's outcome led to (a
// chain: the next task or page from this call's response), or are written by a callback
// that another call of the loop is handed (a receive that delivers through a callback); or
// the counter runs up to a length (i < len(items)).
func (st *state) iterates(call ssa.CallInstruction, l *loops.Loop) bool {
	c := call.Common()
	if st.consumes(flow.Callee(c)) || st.readsConsumedSource(call, l) || st.takesFromConsumed(call, l) {
		return true // it takes the next item of a stream, or looks at what the loop consumes
	}
	args := append([]ssa.Value{c.Value}, c.Args...)
	found := false
	for _, a := range args {
		if phi, ok := flow.Unwrap(a).(*ssa.Phi); ok && phi.Block() == l.Header && typeis.Integer(phi.Type()) && !smallStart(phi, l) {
			return true
		}
		if untilDry(a, call, l) {
			return true // failover: the next candidate each round, until there is none
		}
		if chained(a, call, l) || deliveredBy(a, call, l) {
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
			case *ssa.Phi:
				// A counter that does not count attempts, reaching the call through a variable
				// or a field (config.Port = port): it tries each value of a range.
				found = found || x.Block() == l.Header && typeis.Integer(x.Type()) && !smallStart(x, l)
			case *ssa.Call:
				if x != call && l.Contains(x.Block()) {
					for _, arg := range x.Call.Args {
						if loopCarried(arg, l) && typeis.Integer(arg.Type()) {
							found = true
						}
					}
					if st.consumes(flow.Callee(x.Common())) {
						found = true
					}
				}
			}
			if index != nil && (loopCarried(index, l) || steppedField(index, l)) {
				found = true // items[i], with i the loop's counter or a field it steps (s.index++)
			}
			return !found
		})
	}
	if !found {
		// Or the call is handed what another call of the loop fetched, and that call is asked
		// for what the previous round's answer pointed to: a page (resp := get(base +
		// "?offset=" + next); info := handle(resp); next = info.Offset + info.Limit).
		for _, a := range args {
			flow.Backward(a, 32, func(x ssa.Value) bool {
				if fetch, ok := x.(*ssa.Call); ok && fetch != call && l.Contains(fetch.Block()) {
					for _, fa := range append([]ssa.Value{fetch.Call.Value}, fetch.Call.Args...) {
						found = found || chained(fa, call, l)
					}
					return false
				}
				return !found
			})
		}
	}
	return found || countsToLength(l) || drawsFromCursor(args, call, l) || stopsOnSameInput(call, l)
}

// stopsOnSameInput reports whether the loop leaves when an argument of call is the one the
// previous round failed with (if idx == lastFailIdx { return lastErr }; ...; lastFailIdx =
// idx): it goes round only to try something new, chasing a moving target (the first index of
// a log being truncated), never the same request twice.
func stopsOnSameInput(call ssa.CallInstruction, l *loops.Loop) bool {
	fn := call.Parent()
	for _, a := range call.Common().Args {
		a = flow.Unwrap(a)
		for _, b := range l.Blocks(fn) {
			ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			cmp, ok := ifInstr.Cond.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
				continue
			}
			var prev ssa.Value
			switch {
			case flow.Unwrap(cmp.X) == a:
				prev = cmp.Y
			case flow.Unwrap(cmp.Y) == a:
				prev = cmp.X
			default:
				continue
			}
			phi, ok := flow.Unwrap(prev).(*ssa.Phi)
			if !ok || phi.Block() != l.Header || !carriesFrom(phi, a, l) {
				continue
			}
			same := b.Succs[0]
			if cmp.Op == token.NEQ {
				same = b.Succs[1]
			}
			if !l.CanRepeat(same) {
				return true
			}
		}
	}
	return false
}

// carriesFrom reports whether the header phi takes a, on some way round, as the value for the
// next round.
func carriesFrom(phi *ssa.Phi, a ssa.Value, l *loops.Loop) bool {
	for i, e := range phi.Edges {
		if i >= len(l.Header.Preds) || !l.Contains(l.Header.Preds[i]) {
			continue
		}
		found := false
		flow.Backward(e, 16, func(x ssa.Value) bool {
			found = found || x == a
			_, isPhi := x.(*ssa.Phi)
			return !found && (isPhi && x != phi || x == e)
		})
		if found {
			return true
		}
	}
	return false
}

// drawsFromCursor reports whether call is handed what a method returns of the value whose
// method decides, in the loop's header, whether to go round again: for it.Next() {
// get(it.At()) } walks it; each round works on the next element.
func drawsFromCursor(args []ssa.Value, call ssa.CallInstruction, l *loops.Loop) bool {
	ifInstr, ok := l.Header.Instrs[len(l.Header.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond, ok := flow.Unwrap(ifInstr.Cond).(*ssa.Call)
	if !ok || cond.Block() != l.Header {
		return false
	}
	cursor := recvOf(cond)
	if cursor == nil {
		return false
	}
	at := flow.PlaceOf(cursor)
	found := false
	for _, a := range args {
		flow.Backward(a, 32, func(x ssa.Value) bool {
			if c, ok := x.(*ssa.Call); ok && c != call && c != cond && l.Contains(c.Block()) {
				if r := recvOf(c); r != nil && flow.PlaceOf(r) == at {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// recvOf returns the receiver of a method call, or nil.
func recvOf(call ssa.CallInstruction) ssa.Value {
	fn := flow.Callee(call.Common())
	if fn == nil {
		return nil
	}
	return flow.NewSite(call.Common(), fn).Recv
}

// readsConsumedSource reports whether call is a method whose receiver another call of the
// loop consumes (rd.PeekType() where the loop also calls rd.ReadReply()): the source moves
// on each round, so the loop reads a stream.
func (st *state) readsConsumedSource(call ssa.CallInstruction, l *loops.Loop) bool {
	fn := flow.Callee(call.Common())
	if fn == nil {
		return false
	}
	recv := flow.NewSite(call.Common(), fn).Recv
	if recv == nil {
		return false
	}
	for _, b := range l.Blocks(call.Parent()) {
		for other := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
			ofn := flow.Callee(other.Common())
			if other == call || ofn == nil || !st.consumes(ofn) {
				continue
			}
			if r := flow.NewSite(other.Common(), ofn).Recv; r != nil && flow.SameValue(r, flow.Unwrap(recv)) || r == recv {
				return true
			}
		}
	}
	return false
}

// takesFromConsumed reports whether an argument of call (or its receiver) is read from what
// another call of the loop consumes (pc := p.idle.front; p.idle.popFront(); check(pc.c)): each
// round looks at the next item of the source.
func (st *state) takesFromConsumed(call ssa.CallInstruction, l *loops.Loop) bool {
	var sources []flow.Place
	for _, b := range l.Blocks(call.Parent()) {
		for other := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
			ofn := flow.Callee(other.Common())
			if other == call || ofn == nil || ofn.Signature().Recv() == nil || !st.consumes(ofn) {
				continue
			}
			if r := flow.NewSite(other.Common(), ofn).Recv; r != nil {
				sources = append(sources, flow.PlaceOf(r))
			}
		}
	}
	if len(sources) == 0 {
		return false
	}
	found := false
	for _, a := range call.Common().Args {
		flow.Backward(a, 32, func(x ssa.Value) bool {
			if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
				pl := flow.PlaceOf(load)
				for _, src := range sources {
					if pl.Root == src.Root && strings.HasPrefix(pl.Path, src.Path+".") {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// chained reports whether a, an argument (or the receiver) of call, is computed from a value
// carried from one round to the next and renewed from call's own results (task = next(response
// of call); err = cause.Cause() of the err before), or from itself (name = name[:i], a walk up
// a tree): each round works on what the previous one led to.
func chained(a ssa.Value, call ssa.CallInstruction, l *loops.Loop) bool {
	if call.Value() == nil {
		return false
	}
	var phis []*ssa.Phi
	flow.Backward(a, 32, func(x ssa.Value) bool {
		if phi, ok := x.(*ssa.Phi); ok {
			if phi.Block() == l.Header {
				phis = append(phis, phi)
			}
			return false
		}
		call, isCall := x.(*ssa.Call)
		return !isCall || flow.Computes(flow.ID(flow.Callee(call.Common()))) // a path formatted from the page: fmt.Sprintf("%s?offset=%d", base, next)
	})
	for _, phi := range phis {
		for i, e := range phi.Edges {
			if i >= len(l.Header.Preds) || !l.Contains(l.Header.Preds[i]) || e == phi {
				continue
			}
			renewed, walks := false, false
			flow.Backward(e, 128, func(x ssa.Value) bool {
				renewed = renewed || x == call.Value()
				return !renewed && x != phi
			})
			// Or renewed from itself without a call (sname = sname[:i], n = n.parent): a walk
			// over smaller data.
			walks = derivedFrom(e, phi, false, 0, make(map[ssa.Value]bool))
			if renewed || walks && !typeis.Integer(phi.Type()) {
				return true
			}
		}
	}
	return false
}

// derivedFrom reports whether v is computed from phi by some operation other than phis and
// calls (sname[:i], n.parent): a value passed round unchanged on some path (req, or a clone of
// it on another) is the same value, not a step of a walk.
func derivedFrom(v ssa.Value, phi *ssa.Phi, viaOp bool, depth int, seen map[ssa.Value]bool) bool {
	if v == phi {
		return viaOp
	}
	if seen[v] || depth > 32 {
		return false
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Call:
		return false
	case *ssa.Phi:
		for _, e := range x.Edges {
			if derivedFrom(e, phi, viaOp, depth+1, seen) {
				return true
			}
		}
		return false
	case ssa.Instruction:
		for _, op := range x.Operands(nil) {
			if op != nil && *op != nil && derivedFrom(*op, phi, true, depth+1, seen) {
				return true
			}
		}
	}
	return false
}

// untilDry reports whether a, the receiver or an argument of call, is the next candidate of a
// supply that the loop draws from each round and leaves when it runs dry: a value carried
// from round to round, renewed by another call of the loop, and the loop exits when it is nil
// (for b := c.leastLoaded(); b != nil; b = c.leastLoaded() { b.Fetch(req) }).
func untilDry(a ssa.Value, call ssa.CallInstruction, l *loops.Loop) bool {
	phi, ok := flow.Unwrap(a).(*ssa.Phi)
	if !ok || phi.Block() != l.Header {
		return false
	}
	renewed := false
	for i, e := range phi.Edges {
		if i >= len(l.Header.Preds) || !l.Contains(l.Header.Preds[i]) {
			continue
		}
		next, isCall := flow.Unwrap(e).(*ssa.Call)
		if !isCall || next == call.Value() || !l.Contains(next.Block()) {
			return false
		}
		renewed = true
	}
	if !renewed {
		return false
	}
	// The loop leaves when the candidate is nil.
	for _, b := range l.Blocks(call.Parent()) {
		cmp := equality(b)
		if cmp == nil {
			continue
		}
		if !(cmp.X == phi && flow.IsNil(cmp.Y) || cmp.Y == phi && flow.IsNil(cmp.X)) {
			continue
		}
		onNil := b.Succs[1] // x != nil is false
		if cmp.Op == token.EQL {
			onNil = b.Succs[0]
		}
		if !l.Contains(onNil) {
			return true
		}
	}
	return false
}

// deliveredBy reports whether a, an argument of call, is loaded from a variable that a
// closure writes, the closure being handed to another call made in the loop: that call
// delivers a new value each round (a receive with a callback).
func deliveredBy(a ssa.Value, call ssa.CallInstruction, l *loops.Loop) bool {
	load, ok := flow.Unwrap(a).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok || alloc.Referrers() == nil {
		return false
	}
	for _, r := range *alloc.Referrers() {
		mc, ok := r.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		for _, b := range l.Blocks(call.Parent()) {
			for other := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
				if other == call {
					continue
				}
				for _, arg := range other.Common().Args {
					handed := false
					flow.Backward(arg, 16, func(x ssa.Value) bool {
						handed = handed || x == mc
						return !handed
					})
					if handed {
						return true
					}
				}
			}
		}
	}
	return false
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

// countsToLength reports whether the loop's header compares its counter with len(x) or cap(x):
// it walks a collection. (An accessor's count, t.NumField(), comes with the accessor called with
// the counter, t.Field(i), which iterates finds by structure.)
func countsToLength(l *loops.Loop) bool {
	ifInstr, ok := l.Header.Instrs[len(l.Header.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := ifInstr.Cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	// The length on one side, and on the other a counter the loop steps: a loop that compares
	// an index it never moves with a length goes round on the same element.
	return length(cmp.X, 0) && changesInLoop(cmp.Y, l) || length(cmp.Y, 0) && changesInLoop(cmp.X, l)
}

// length reports whether v is len(x) or cap(x), or the result of a function of the same
// package that returns one (s.Size() where Size returns len(s.items)).
func length(v ssa.Value, depth int) bool {
	call, ok := flow.Unwrap(v).(*ssa.Call)
	if !ok {
		return false
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); ok {
		return b.Name() == "len" || b.Name() == "cap"
	}
	callee := call.Call.StaticCallee()
	if callee == nil || depth > 1 || callee.Pkg != call.Parent().Pkg || len(callee.Blocks) == 0 {
		return false
	}
	returns := 0
	for _, b := range callee.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if len(ret.Results) != 1 || !length(ret.Results[0], depth+1) {
				return false
			}
			returns++
		}
	}
	return returns > 0
}

// steppedField reports whether v is loaded from memory the loop steps (s.index++).
func steppedField(v ssa.Value, l *loops.Loop) bool {
	load, ok := flow.Unwrap(v).(*ssa.UnOp)
	return ok && load.Op == token.MUL && storesStep(load.X, l)
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
		if call, _, _ := outcome(cmp, l.Contains); call != nil {
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
		limit := cmp.Y
		if changesInLoop(cmp.Y, l) {
			limit = cmp.X
		}
		if fv := loadedField(limit); fv != nil && fv.Pkg() != nil {
			bound.Setting, bound.field = fv.Pkg().Path()+"."+fv.Name(), fv
		}
	}
	if bound.Kind == BoundNone && onceMore(fn, l) {
		return Bound{Kind: BoundConst, N: 2}
	}
	if bound.Kind == BoundNone && opaqueExit(fn, l, decisive) {
		return Bound{Kind: BoundUnknown}
	}
	return bound
}

// loadedField returns the struct field whose value v is (a load of it, converted or with a
// constant added: retries + 1), or nil.
func loadedField(v ssa.Value) *types.Var {
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
		default:
			return nil
		}
	}
	return nil
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
// boolean from a call it cannot see into (wait, more := b.Next(n); if !more { return }), other
// than a test of the decisive call's outcome or of a context. Such a policy may count the
// attempts itself, so "unbounded" would not be certain.
func opaqueExit(fn *ssa.Function, l *loops.Loop, decisive ssa.CallInstruction) bool {
	for _, b := range fn.Blocks {
		if !l.Contains(b) || len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || !slices.ContainsFunc(b.Succs, func(s *ssa.BasicBlock) bool { return l.CanExit(s) && !l.CanRepeat(s) }) {
			continue
		}
		opaque := false
		flow.Backward(ifInstr.Cond, 32, func(x ssa.Value) bool {
			call, ok := x.(*ssa.Call)
			if !ok {
				return true
			}
			id := flow.ID(flow.Callee(call.Common()))
			if call != decisive && l.Contains(call.Block()) && id.Pkg != "context" && id.Pkg != "errors" && id.Pkg != "time" &&
				call.Common().Signature().Results().Len() > 0 && slices.ContainsFunc(tupleTypes(call), typeis.Bool) {
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

// tupleTypes returns the types of a call's results.
func tupleTypes(call *ssa.Call) []types.Type {
	r := call.Common().Signature().Results()
	out := make([]types.Type, r.Len())
	for i := range out {
		out[i] = r.At(i).Type()
	}
	return out
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
	if fn == nil {
		return false
	}
	at := flow.PlaceOf(addr)
	loaded := flow.Place{Root: at.Root, Path: at.Path + "*"} // the value kept there
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && flow.PlaceOf(st.Addr) == at {
				// n = n - 1 (n-- included), not n = other - 1.
				if bin, ok := st.Val.(*ssa.BinOp); ok && (bin.Op == token.ADD || bin.Op == token.SUB) &&
					(flow.PlaceOf(bin.X) == loaded || flow.PlaceOf(bin.Y) == loaded) {
					return true
				}
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
