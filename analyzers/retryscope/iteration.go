package retryscope

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// iterates reports whether the loop works through a sequence rather than repeating one
// operation: the call's arguments are taken from a collection or accessor by the loop's
// counter (items[i], v.Method(i)), or are the counter itself when it does not start at 0 or 1
// (for port := lo; port <= hi; port++), or come from a channel or from a call that consumes a
// source (Recv, Read, Next, Pop...), or are what the previous round's outcome led to (a
// chain: the next task or page from this call's response), or are written by a callback
// that another call of the loop is handed (a receive that delivers through a callback); or
// the counter runs up to a length (i < len(items)); or the call runs only after an event
// arrives on a channel (afterEvent).
func (st *state) iterates(d decision, l *loops.Loop) bool {
	call := d.call
	c := call.Common()
	if st.consumesAt(c, l) || st.readsConsumedSource(call, l) || st.takesFromConsumed(call, l) {
		return true // it takes the next item of a stream, or looks at what the loop consumes
	}
	args := append([]ssa.Value{c.Value}, c.Args...)
	found := false
	for _, a := range args {
		if phi, ok := flow.Unwrap(a).(*ssa.Phi); ok && typeis.Integer(phi.Type()) && !smallStart(phi, l) && carriedTarget(phi, l) {
			return true
		}
		if untilDry(a, call, l) {
			return true // failover: the next candidate each round, until there is none
		}
		if chained(a, call, l, &d) || storedChain(a, call, l, d) || deliveredBy(a, call, l) {
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
				found = found || typeis.Integer(x.Type()) && !smallStart(x, l) && carriedTarget(x, l)
			case *ssa.Call:
				if x != call && l.Contains(x.Block()) && remote.CopiedParam(x.Common()) == nil {
					for _, arg := range x.Call.Args {
						if typeis.Integer(arg.Type()) && (carriedTarget(arg, l) || st.movedByLoop(arg, l)) {
							found = true // store.get(db, s.periods.End-1), with End moved by the loop's calls
						}
					}
					if st.consumesAt(x.Common(), l) {
						found = true
					}
				}
			}
			if index != nil && (loopCarried(index, l) || steppedField(index, l) || offsetCounter(index, l) && countsTargets(l, call.Parent())) {
				// items[i], with i the loop's counter or a field it steps (s.index++); or
				// items[(start+i)%n] in a loop of as many rounds as there are items.
				found = true
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
						found = found || chained(fa, call, l, &d)
					}
					return false
				}
				return !found
			})
		}
	}
	// A loop that leaves once the call succeeded is not working through a cursor: its io.EOF
	// is an answer (a 204 to a poll), not the end of the items.
	eof := endsAtEOF(call, l) && l.CanRepeat(d.block.Succs[d.success])
	return found || countsToLength(l) || drawsFromCursor(args, call, l) || stopsOnSameInput(call, l) || afterEvent(call, l) || eof
}

// consumesAt reports whether c takes the next item of a source that lasts across the rounds
// of l: a method's receiver, or an argument made before the loop (io.ReadFull(src, buf),
// readFill(u.media, buf), p.parseOne(r, onEvent)). A reader the round's own call returned (an
// answer's body) is that attempt's answer, not a source: reading it short is a failed attempt.
func (st *state) consumesAt(c *ssa.CallCommon, l *loops.Loop) bool {
	fn := flow.Callee(c)
	i := st.sourceParam(fn)
	method := c.IsInvoke() || fn != nil && fn.Signature().Recv() != nil
	switch {
	case i < 0:
		return false
	case i == 0 && method:
		return true // its receiver
	case c.IsInvoke():
		i-- // the receiver is not among the arguments
	}
	if i < 0 || i >= len(c.Args) {
		return false
	}
	switch root := flow.PlaceOf(c.Args[i]).Root.(type) { // u.media: the root u
	case *ssa.Parameter, *ssa.Global, *ssa.FreeVar, *ssa.Const, *ssa.Function:
		return true
	case ssa.Instruction:
		return root.Block() != nil && !l.Contains(root.Block())
	}
	return false
}

// endsAtEOF reports whether the loop leaves when a call's error is io.EOF, and that call is
// call or hands call what it returned (for chunk, err := r.Next(); err != io.EOF; ... and for
// { f, err := loader.NextFile(); if err == io.EOF { break }; ...; f.Read(&buf) }): the loop
// works through what a cursor yields until it runs dry, and each round's call is about the
// round's item.
func endsAtEOF(call ssa.CallInstruction, l *loops.Loop) bool {
	for _, b := range l.Blocks(call.Parent()) {
		errv, holds, ok := sentinelBranch(b, isEOF)
		if !ok || l.Contains(b.Succs[holds]) {
			continue
		}
		if cursor := producer(errv, l.Contains); cursor == call || cursor != nil && handedOn(cursor, call) {
			return true
		}
	}
	return false
}

// handedOn reports whether call's receiver or arguments are computed from what from returned.
func handedOn(from, call ssa.CallInstruction) bool {
	fv := from.Value()
	if fv == nil {
		return false
	}
	c := call.Common()
	found := false
	for _, a := range append([]ssa.Value{c.Value}, c.Args...) {
		flow.Backward(a, 32, func(x ssa.Value) bool {
			found = found || x == fv
			return !found
		})
	}
	return found
}

// isEOF reports whether g is io.EOF.
func isEOF(g *ssa.Global) bool {
	return g.Pkg != nil && g.Pkg.Pkg.Path() == "io" && g.Name() == "EOF"
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
// method decides, in the loop's header, whether to go round again, or that value itself: for
// it.Next() { get(it.At()) } walks it; each round works on the next element. (Not when the
// call is that method: for !h.connect() { sleep } tries the same thing again.)
func drawsFromCursor(args []ssa.Value, call ssa.CallInstruction, l *loops.Loop) bool {
	ifInstr, ok := l.Header.Instrs[len(l.Header.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond, ok := flow.Unwrap(ifInstr.Cond).(*ssa.Call)
	if !ok || cond == call || cond.Block() != l.Header || !slices.ContainsFunc(l.Header.Succs, func(s *ssa.BasicBlock) bool { return leavesBefore(s, call, l) }) {
		return false // (a test both of whose sides go on to the call decides nothing about going round)
	}
	cursor := recvOf(cond)
	if cursor == nil {
		return false
	}
	at := flow.PlaceOf(cursor)
	fromCursor := func(c ssa.CallInstruction) bool {
		r := recvOf(c)
		return c != call && c != cond && c.Block() != nil && l.Contains(c.Block()) && r != nil && flow.PlaceOf(r) == at
	}
	var cursorCalls []ssa.CallInstruction // the cursor's other methods called in the loop
	for c := range flow.BlockCalls(l.Blocks(call.Parent())) {
		if fromCursor(c) {
			cursorCalls = append(cursorCalls, c)
		}
	}
	found := false
	for _, a := range args {
		if flow.PlaceOf(flow.Unwrap(a)) == at {
			return true // handed the cursor itself: for rows.Next() { v, err := scanRow(rows) }
		}
		flow.Backward(a, 32, func(x ssa.Value) bool {
			if c, ok := x.(*ssa.Call); ok && fromCursor(c) {
				found = true
			}
			// A variable the cursor's method writes the element into: rows.Scan(&id, &raw).
			if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
				if v, ok := load.X.(*ssa.Alloc); ok && slices.ContainsFunc(cursorCalls, func(c ssa.CallInstruction) bool { return handsAddress(c, v) }) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// handsAddress reports whether call is handed the address of the variable v: as an argument
// (handed), or as an element of its variadic ...any (rows.Scan(&id, &raw)).
func handsAddress(call ssa.CallInstruction, v *ssa.Alloc) bool {
	if handed(call, v) {
		return true
	}
	for _, a := range call.Common().Args {
		elems, _ := flow.Elems(a)
		if slices.ContainsFunc(elems, func(e ssa.Value) bool { return e != nil && flow.Unwrap(e) == v }) {
			return true
		}
	}
	return false
}

// leavesBefore reports whether control can leave loop l from b without passing call or going
// back to the header: for scanner.Scan() { ... } leaves when the input ends.
func leavesBefore(b *ssa.BasicBlock, call ssa.CallInstruction, l *loops.Loop) bool {
	if b == call.Block() {
		return false
	}
	for x := range flow.Forward([]*ssa.BasicBlock{b}, func(from, to *ssa.BasicBlock) bool {
		return l.Contains(from) && to != l.Header && to != call.Block()
	}) {
		if !l.Contains(x) {
			return true
		}
	}
	return false
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
		// (Not a list of delays: for i := 0; i < len(delays); i++ { ...; sleep(delays[i]) }
		// goes round on a schedule, it does not walk items.)
		return (b.Name() == "len" || b.Name() == "cap") && !delayList(call.Call.Args[0].Type())
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

// delayList reports whether t is a slice or array of time.Duration: a retry schedule.
func delayList(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return typeis.Duration(u.Elem())
	case *types.Array:
		return typeis.Duration(u.Elem())
	case *types.Pointer:
		return delayList(u.Elem())
	}
	return false
}

// movedByLoop reports whether v is (a constant away from) a field that a call the loop makes
// writes: a position in a store that the loop's own work moves (rollback shrinks
// s.periods.End), so each round is handed another item.
func (st *state) movedByLoop(v ssa.Value, l *loops.Loop) bool {
	v = flow.Unwrap(v)
	if bin, ok := v.(*ssa.BinOp); ok && (bin.Op == token.ADD || bin.Op == token.SUB) {
		if _, isConst := flow.IntConst(bin.Y); isConst {
			v = flow.Unwrap(bin.X)
		}
	}
	load, fa := flow.FieldLoad(v)
	if fa == nil {
		return false
	}
	fv := flow.FieldVar(fa)
	return fv != nil && st.writtenInLoop(fv, load.Parent(), l)
}

// steppedField reports whether v is loaded from memory the loop steps (s.index++).
func steppedField(v ssa.Value, l *loops.Loop) bool {
	load, ok := flow.Unwrap(v).(*ssa.UnOp)
	return ok && load.Op == token.MUL && storesStep(load.X, l)
}

// offsetCounter reports whether v is computed from the loop's counter by arithmetic
// ((c.current + i) % len(c.clients)): each round another position, starting elsewhere.
func offsetCounter(v ssa.Value, l *loops.Loop) bool {
	found := false
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if found || depth > 4 {
			return
		}
		switch x := flow.Unwrap(v).(type) {
		case *ssa.Phi:
			found = x.Block() == l.Header && typeis.Integer(x.Type())
		case *ssa.BinOp:
			if x.Op == token.ADD || x.Op == token.SUB || x.Op == token.REM {
				walk(x.X, depth+1)
				walk(x.Y, depth+1)
			}
		}
	}
	walk(v, 0)
	return found
}

// carriedTarget reports whether v is (a conversion of) a phi at the loop's header that the
// loop moves to a value computed on some way round (port++, next(port)): a value it only keeps
// or sets to a constant (proto = 1, a one-time fallback) names a target, it does not walk a
// range of them.
func carriedTarget(v ssa.Value, l *loops.Loop) bool {
	phi, ok := flow.Unwrap(v).(*ssa.Phi)
	if !ok || phi.Block() != l.Header {
		return false
	}
	for i, e := range phi.Edges {
		if i >= len(l.Header.Preds) || !l.Contains(l.Header.Preds[i]) || e == ssa.Value(phi) {
			continue
		}
		if _, ok := flow.IntConst(e); !ok {
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
