package retryscope

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Failover: a hand-written loop that goes round to another target (a backend, a connection,
// an address) rather than the failing one again.

// failover reports whether the attempt d.call is handed a target the loop picks anew each
// round (b := pool.next(); do(req, b)), which the failure side marks (a store into a field of
// it, or an atomic write of one: b.broken.Store(true)) before the loop goes round.
//
// Or, in a loop with a bound, the attempt is made through a connection the round takes anew
// (wc, err := pool.take(); ...; err = wc.Start(msg)) that the failure side closes before
// going round: the next round tries another connection, as many as the bound allows. A file
// opened anew (the body to upload) is the same attempt again, not another target.
func failover(l *loops.Loop, d decision, b Bound) bool {
	counts := countsTargets(l, d.block.Parent())
	fail := d.block.Succs[1-d.success]
	cc := d.call.Common()
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		var pick ssa.Value
		switch x := flow.Unwrap(a).(type) {
		case *ssa.Call:
			pick = x
		case *ssa.Extract:
			if _, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
				pick = x // wc, err := pool.take()
			}
		}
		if pick == nil || !l.Contains(pick.(ssa.Instruction).Block()) {
			continue
		}
		if counts && marks(pick, fail, l) || b.Kind != BoundNone && closes(pick, fail) && !typeis.Named(pick.Type(), "os", "File") || excludesTried(pick, l) {
			return true
		}
	}
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		if a != nil && (rotates(d.block.Parent(), l, a) || randomPick(l, a)) {
			return true
		}
	}
	return reportsBack(l, d, fail)
}

// randomPick reports whether target, an argument of the attempt (or its receiver), comes from
// an element of a list taken at a random index each round (s := servers[rand.IntN(len(servers))];
// lookupAt(s).NS(ctx, name)): the attempts are spread over the list's targets, not sent to one
// again. (A random byte or rune from a table is a character of a name, not a target.)
func randomPick(l *loops.Loop, target ssa.Value) bool {
	found := false
	flow.Backward(target, 32, func(v ssa.Value) bool {
		var index ssa.Value
		var elem types.Type
		switch x := v.(type) {
		case *ssa.IndexAddr:
			index, elem = x.Index, x.Type().Underlying().(*types.Pointer).Elem()
		case *ssa.Index:
			index, elem = x.Index, x.Type()
		}
		if index == nil || !l.Contains(v.(ssa.Instruction).Block()) {
			return !found
		}
		if b, ok := elem.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return !found
		}
		flow.Backward(index, 8, func(x ssa.Value) bool {
			if c, ok := x.(*ssa.Call); ok && l.Contains(c.Block()) && knowledge.RandomNumber(flow.ID(flow.Callee(c.Common()))) {
				found = true
			}
			return !found
		})
		return !found
	})
	return found
}

// dropsTried reports whether each round sends the attempt to a target taken from a list that
// the way round shrinks by that target (h := left[0]; left = left[1:], or left rebuilt
// without h): each round goes to a target not tried yet. The target reaches the attempt as an
// argument or stored into one (req.URL.Host = h).
func dropsTried(l *loops.Loop, d decision) bool {
	attempts := feeding(d.call, l)
	for _, instr := range l.Header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if _, ok := phi.Type().Underlying().(*types.Slice); !ok {
			continue
		}
		picks := make(map[ssa.Value]bool) // the elements read, and whether each is the first
		for _, r := range *phi.Referrers() {
			if pick, first := pickOf(r, l); pick != nil {
				picks[pick] = first
			}
		}
		// if len(left) == 1 { h = left[0] } else { h = left[rand.Intn(len(left))] }
		for _, b := range l.Blocks(d.block.Parent()) {
			for _, instr := range b.Instrs {
				if p, ok := instr.(*ssa.Phi); ok && p != phi && len(p.Edges) > 0 && !slices.ContainsFunc(p.Edges, func(e ssa.Value) bool {
					_, ok := picks[e]
					return !ok
				}) {
					picks[p] = false
				}
			}
		}
		for pick, first := range picks {
			if slices.ContainsFunc(attempts, func(c ssa.CallInstruction) bool { return handedTo(pick, c) }) && shrinksBy(phi, pick, first, l) {
				return true
			}
		}
	}
	return false
}

// feeding returns call and the calls of loop l whose results call is handed (resp, err :=
// hc.Do(req); resp, err = handle(resp)): the attempt, as the request that leaves.
func feeding(call ssa.CallInstruction, l *loops.Loop) []ssa.CallInstruction {
	out := []ssa.CallInstruction{call}
	for _, a := range call.Common().Args {
		flow.Backward(a, 8, func(x ssa.Value) bool {
			if c, ok := x.(*ssa.Call); ok && c.Block() != nil && l.Contains(c.Block()) && !slices.Contains(out, ssa.CallInstruction(c)) {
				out = append(out, c)
			}
			return true
		})
	}
	return out
}

// pickOf returns the element of a list that r, an instruction of loop l, reads (left[i]), and
// whether it is the first.
func pickOf(r ssa.Instruction, l *loops.Loop) (ssa.Value, bool) {
	if r.Block() == nil || !l.Contains(r.Block()) {
		return nil, false
	}
	var index ssa.Value
	var v ssa.Value
	switch x := r.(type) {
	case *ssa.Index:
		v, index = x, x.Index
	case *ssa.IndexAddr:
		for _, u := range *x.Referrers() {
			if load, ok := u.(*ssa.UnOp); ok && load.Op == token.MUL {
				v, index = load, x.Index
			}
		}
	}
	if v == nil {
		return nil, false
	}
	n, isConst := flow.IntConst(index)
	return v, isConst && n == 0
}

// handedTo reports whether target is an argument of call, or is stored into a field of one.
func handedTo(target ssa.Value, call ssa.CallInstruction) bool {
	args := call.Common().Args
	for _, a := range args {
		if flow.SameValue(a, target) {
			return true
		}
	}
	for _, r := range *target.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Val != target {
			continue
		}
		root := flow.PlaceOf(st.Addr).Root
		for _, a := range args {
			if flow.Unwrap(a) == root {
				return true // req.URL.Host = h; c.hc.Do(req)
			}
		}
	}
	return false
}

// shrinksBy reports whether every way round gives list, a phi at the loop's header, a value
// without pick: list[1:] when pick is its first element, or a list built by appending only
// elements other than pick (if v != h { rest = append(rest, v) }).
func shrinksBy(list *ssa.Phi, pick ssa.Value, first bool, l *loops.Loop) bool {
	found := false
	for i, e := range list.Edges {
		if i >= len(list.Block().Preds) || !l.Contains(list.Block().Preds[i]) {
			continue
		}
		switch x := flow.Unwrap(e).(type) {
		case *ssa.Slice:
			lo, ok := flow.IntConst(x.Low)
			if x.X != list || !ok || lo < 1 || !first || x.High != nil {
				return false
			}
		default:
			if !appendsOthers(e, pick, l) {
				return false
			}
		}
		found = true
	}
	return found
}

// appendsOthers reports whether v is a list built in loop l from nil by appends each made only
// where the element differs from pick.
func appendsOthers(v ssa.Value, pick ssa.Value, l *loops.Loop) bool {
	ok, appends := true, 0
	flow.Backward(v, 16, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Phi:
			return true
		case *ssa.Const:
			ok = ok && x.IsNil()
		case *ssa.Call:
			if b, isBuiltin := x.Call.Value.(*ssa.Builtin); !isBuiltin || b.Name() != "append" || !l.Contains(x.Block()) || !unlike(x.Block(), pick) {
				ok = false
				return false
			}
			appends++
			return false
		default:
			ok = false
		}
		return false
	})
	return ok && appends > 0
}

// unlike reports whether block b runs only where a test found an element different from
// pick (v != h, its true side; v == h, its false side).
func unlike(b *ssa.BasicBlock, pick ssa.Value) bool {
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifInstr, ok := lastInstr(d).(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL || cmp.X != pick && cmp.Y != pick {
			continue
		}
		side := d.Succs[0]
		if cmp.Op == token.EQL {
			side = d.Succs[1]
		}
		if len(side.Preds) == 1 && side.Dominates(b) {
			return true
		}
	}
	return false
}

// rotates reports whether the loop's count is the length of a list (n := len(c.addrs);
// for n > 0 {...; n--}) and target, an argument of the attempt, is that list's element for
// this round, returned by a same-package function that indexes the list and advances a
// cursor of its own (c.nextAddr()): each round tries the next target, each at most once. (A
// loop that indexes the list itself, addrs[i%n], iterates over it: see iteration.go.)
func rotates(fn *ssa.Function, l *loops.Loop, target ssa.Value) bool {
	lists := lengthsCounted(fn, l)
	if len(lists) == 0 {
		return false
	}
	found := false
	flow.Backward(target, 32, func(x ssa.Value) bool {
		instr, ok := x.(ssa.Instruction)
		if !ok || instr.Block() == nil || !l.Contains(instr.Block()) {
			return true
		}
		if c, ok := x.(*ssa.Call); ok {
			if g := c.Call.StaticCallee(); g != nil && g.Pkg == fn.Pkg && g.Blocks != nil {
				found = picksInTurn(g, lists)
			}
		}
		return !found
	})
	return found
}

// lengthsCounted returns the lists whose length an integer test in loop l compares with
// (n := len(addrs) ... n > 0), by listKey.
func lengthsCounted(fn *ssa.Function, l *loops.Loop) map[any]bool {
	lists := make(map[any]bool)
	for _, cmp := range intTests(fn, l) {
		for _, side := range []ssa.Value{cmp.X, cmp.Y} {
			flow.Backward(side, 16, func(x ssa.Value) bool {
				if c, ok := x.(*ssa.Call); ok && len(c.Call.Args) == 1 {
					if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "len" {
						lists[listKey(c.Call.Args[0])] = true
					}
				}
				return true
			})
		}
	}
	return lists
}

// listKey names a list so that a function and the method it calls agree: a struct field by
// its declaration (c.addrs in both), anything else by its place.
func listKey(v ssa.Value) any {
	v = flow.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			if ptr, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
				if st, ok := ptr.Elem().Underlying().(*types.Struct); ok && fa.Field < st.NumFields() {
					return st.Field(fa.Field)
				}
			}
		}
	}
	return flow.PlaceOf(v)
}

// picksInTurn reports whether g, a picker called each round, returns an element of one of
// lists at an index computed from a field of a parameter that g also stores into: its
// cursor (addrs[c.addrIdx%n]; c.addrIdx++). A store into another field (a lazy c.addrs =
// split(...)) is no cursor.
func picksInTurn(g *ssa.Function, lists map[any]bool) bool {
	cursors := make(map[*types.Var]bool) // fields of parameters the returned element's index reads
	for ret := range flow.Returns(g) {
		for _, r := range ret.Results {
			flow.Backward(r, 16, func(y ssa.Value) bool {
				var list, index ssa.Value
				switch y := y.(type) {
				case *ssa.IndexAddr:
					list, index = y.X, y.Index
				case *ssa.Index:
					list, index = y.X, y.Index
				default:
					return true
				}
				if lists[listKey(list)] {
					flow.Backward(index, 8, func(z ssa.Value) bool {
						if _, fa := flow.FieldLoad(z); fa != nil && paramField(fa) {
							cursors[flow.FieldVar(fa)] = true
						}
						return true
					})
				}
				return true
			})
		}
	}
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && paramField(fa) && cursors[flow.FieldVar(fa)] {
					return true
				}
			}
		}
	}
	return false
}

// paramField reports whether fa addresses a field of a parameter of its function.
func paramField(fa *ssa.FieldAddr) bool {
	_, ok := flow.Unwrap(fa.X).(*ssa.Parameter)
	return ok
}

// reportsBack reports whether the attempt d.call is made with a target that a method picks
// anew each round (h, err := hosts.Provide(); ...; download(&info{Host: h.Addr()})), and the
// failure side hands that target back to a method of the same picker before the loop goes
// round (hosts.Freeze(h)): the picker learns which target failed, and the next round tries
// another.
func reportsBack(l *loops.Loop, d decision, fail *ssa.BasicBlock) bool {
	fn := d.block.Parent()
	cc := d.call.Common()
	found := false
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		flow.Backward(a, 32, func(x ssa.Value) bool {
			var pickCall *ssa.Call
			switch x := x.(type) {
			case *ssa.Call:
				pickCall = x
			case *ssa.Extract:
				if c, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
					pickCall = c
				}
			}
			if pickCall == nil || pickCall == d.call || !l.Contains(pickCall.Block()) {
				return true
			}
			pickFn := flow.Callee(pickCall.Common())
			if pickFn == nil {
				return true // a function value: no picker to tell
			}
			picker := flow.NewSite(pickCall.Common(), pickFn).Recv
			if picker == nil {
				return true
			}
			for _, b := range l.Blocks(fn) {
				if !fail.Dominates(b) {
					continue
				}
				for c := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
					callee := flow.Callee(c.Common())
					if callee == nil {
						continue
					}
					site := flow.NewSite(c.Common(), callee)
					if site.Recv == nil || flow.PlaceOf(site.Recv) != flow.PlaceOf(picker) {
						continue
					}
					if slices.ContainsFunc(site.Args, func(v ssa.Value) bool { return flow.Unwrap(v) == x }) {
						found = true
					}
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// triesEachOnce reports whether the attempt d.call is handed a target picked by a call that
// is given the set of the targets tried so far, into which the loop puts each one it picks
// (excludesTried): each round tries another target, and the picker runs out.
func triesEachOnce(l *loops.Loop, d decision) bool {
	cc := d.call.Common()
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		if excludesTried(flow.Unwrap(a), l) {
			return true
		}
	}
	return false
}

// excludesTried reports whether pick, a target picked in loop l (selected, err :=
// pickWorker(key, attempted)), comes from a call handed a map into which the loop puts that
// target (attempted[selected] = struct{}{}): the picker leaves out the targets tried.
func excludesTried(pick ssa.Value, l *loops.Loop) bool {
	var call *ssa.Call
	switch x := pick.(type) {
	case *ssa.Call:
		call = x
	case *ssa.Extract:
		call, _ = x.Tuple.(*ssa.Call)
	}
	if call == nil || !l.Contains(call.Block()) {
		return false
	}
	for _, m := range call.Call.Args {
		if _, ok := m.Type().Underlying().(*types.Map); !ok {
			continue
		}
		at := flow.PlaceOf(m)
		for _, b := range l.Blocks(call.Parent()) {
			for _, instr := range b.Instrs {
				if mu, ok := instr.(*ssa.MapUpdate); ok && flow.PlaceOf(mu.Map) == at && flow.Unwrap(mu.Key) == pick {
					return true
				}
			}
		}
	}
	return false
}

// closes reports whether a block dominated by fail closes target, by the method that makes
// its type an io.Closer.
func closes(target ssa.Value, fail *ssa.BasicBlock) bool {
	refs := target.Referrers()
	if refs == nil || !types.Implements(target.Type(), closerIface) {
		return false
	}
	for _, r := range *refs {
		c, ok := r.(ssa.CallInstruction)
		if !ok || !fail.Dominates(c.Block()) {
			continue
		}
		cc := c.Common()
		if m := flow.Callee(cc); m != nil && m.Name() == "Close" && m.Signature().Recv() != nil && (cc.IsInvoke() && cc.Value == target || len(cc.Args) > 0 && cc.Args[0] == target) {
			return true
		}
	}
	return false
}

// closerIface is io.Closer's method set: Close() error.
var closerIface = types.NewInterfaceType([]*types.Func{
	types.NewFunc(token.NoPos, nil, "Close", types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Universe.Lookup("error").Type())), false)),
}, nil).Complete()

// countsTargets reports whether a test of loop l compares a number with the length of a
// collection (for range len(backends)): as many rounds as there are targets.
func countsTargets(l *loops.Loop, fn *ssa.Function) bool {
	for _, cmp := range intTests(fn, l) {
		found := false
		for _, side := range []ssa.Value{cmp.X, cmp.Y} {
			flow.Backward(side, 16, func(x ssa.Value) bool {
				if c, ok := x.(*ssa.Call); ok {
					if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "len" {
						found = true
					}
				}
				return !found
			})
		}
		if found {
			return true
		}
	}
	return false
}

// marks reports whether a block on the failure side, from fail, writes into target: a store
// into one of its fields, or an atomic write of one.
func marks(target ssa.Value, fail *ssa.BasicBlock, l *loops.Loop) bool {
	refs := target.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Referrers() == nil || !l.Contains(fa.Block()) || !fail.Dominates(fa.Block()) {
			continue
		}
		for _, u := range *fa.Referrers() {
			switch u := u.(type) {
			case *ssa.Store:
				if u.Addr == fa {
					return true
				}
			case ssa.CallInstruction:
				// b.broken.Store(deadline): a write through a sync/atomic value (a lock or a
				// read of the field marks nothing).
				if cc := u.Common(); len(cc.Args) > 0 && cc.Args[0] == fa && atomicWrite(flow.Callee(cc)) {
					return true
				}
			}
		}
	}
	return false
}

// atomicWrite reports whether fn is a method of a sync/atomic type that writes its value.
func atomicWrite(fn *types.Func) bool {
	id := flow.ID(fn)
	return id.Pkg == "sync/atomic" && id.Recv != "" && oneOf(id.Name, "Store", "Add", "Swap", "CompareAndSwap", "And", "Or")
}

// atomicAccess reports whether cc calls sync/atomic on the address its first argument is (a
// function such as atomic.StoreInt32(&x, 1), or a method of a typed atomic such as
// (*atomic.Bool).Store) whose name starts with one of prefixes.
func atomicAccess(cc *ssa.CallCommon, prefixes ...string) bool {
	id := flow.ID(flow.Callee(cc))
	if id.Pkg != "sync/atomic" || cc.IsInvoke() || len(cc.Args) == 0 {
		return false
	}
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(id.Name, p) })
}

// failsOver reports whether loop l, which works through a collection (iterates), sends the
// same HTTP request to each of its elements: the element picks only where the request goes
// (its URL: a peer, a mirror), while the method and the body are the same every round. A loop
// that leaves once a target answered and goes round when one fails sends the request again,
// elsewhere (for _, peer := range peers { req := NewRequest(method, url(peer), body); ... if
// err != nil { continue }; return }): what the first target may have done, the next may do
// again.
func (st *state) failsOver(d decision, l *loops.Loop) bool {
	snd := st.rem.SendOf(d.call)
	if snd == nil || snd.Made == nil || !l.Contains(snd.Made.Block()) || snd.URL == nil {
		return false
	}
	return fromRound(snd.URL, l, false) && !fromRound(snd.MethodArg, l, true) && !fromRound(snd.Body, l, true)
}

// fromRound reports whether v is computed from an element that loop l takes from a collection
// (peers[i], a range's key or value) or, when carried is set, from a value carried round the
// loop (a phi of its header): it changes from round to round.
func fromRound(v ssa.Value, l *loops.Loop, carried bool) bool {
	found := false
	flow.Backward(v, 64, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Phi:
			found = found || carried && x.Block() == l.Header
		case *ssa.IndexAddr, *ssa.Index, *ssa.Lookup, *ssa.Next:
			found = found || l.Contains(x.(ssa.Instruction).Block())
		}
		return !found
	})
	return found
}

// switchesTarget reports whether the attempt d.call is handed a target that the round takes
// from a picker, and the way round from d's failure moves the picker on, as long as it has a
// target: region := regions.Current() handed to the attempt, and if !regions.Switch() { break }
// on the way round (the bool answer of the move ends the loop); or urls.Peek(&u) filling the
// URL the request is sent to, urls.Next() on the way round, and a test of Peek's answer that
// can leave the loop. Each round goes to another target, for as long as the picker has one.
func switchesTarget(l *loops.Loop, d decision) bool {
	if pickedAnew(l, d) {
		return true
	}
	fn := d.block.Parent()
	fail := d.block.Succs[1-d.success]
	var read map[any]bool
	for pick := range flow.BlockCalls(l.Blocks(fn)) {
		if pick == d.call || receiverOf(pick) == nil {
			continue
		}
		if !slices.ContainsFunc(append([]ssa.Value{d.call.Common().Value}, d.call.Common().Args...), func(a ssa.Value) bool { return flow.Unwrap(a) == pick.Value() }) {
			if read == nil {
				read = attemptReads(d)
			}
			if !fillsTarget(pick, read) {
				continue
			}
		}
		picker := flow.PlaceOf(receiverOf(pick))
		moved := false
		for _, b := range l.Blocks(fn) {
			if !fail.Dominates(b) {
				continue
			}
			for c := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
				if c == pick || c == d.call || receiverOf(c) == nil || flow.PlaceOf(receiverOf(c)) != picker {
					continue
				}
				if res := c.Common().Signature().Results(); res.Len() == 1 && typeis.Bool(res.At(0).Type()) && l.CanExit(b) {
					return true
				}
				moved = true
			}
		}
		if moved && answerEnds(l, fn, picker) {
			return true
		}
	}
	return false
}

// pickedAnew reports whether the attempt is handed a value computed in the round from one
// carried round loop l that every way round takes anew from one picker kept outside the loop,
// handing it the target that failed (conn, err := dial(server); exchange(conn, req), with
// server = ups.SwitchIf(server) on each failure): each round goes to the target the picker
// moved on to. (A value fetched again without the previous one, tok = src.Token(), is no
// move to another target.)
func pickedAnew(l *loops.Loop, d decision) bool {
	c := d.call.Common()
	// A value carried round: a phi of the header (its edges from inside the loop), or a
	// variable that lives in memory (a named result a defer may read) and the stores into it
	// made in the loop, each way round from a failure passing one.
	type carriedValue struct {
		in   []ssa.Value
		prev func(ssa.Value) bool // whether a value is the previous round's
	}
	var carried []carriedValue
	fail := d.block.Succs[1-d.success]
	for _, a := range append([]ssa.Value{c.Value}, c.Args...) {
		flow.Backward(a, 32, func(x ssa.Value) bool {
			if phi, ok := x.(*ssa.Phi); ok && phi.Block() == l.Header {
				var in []ssa.Value
				for i, e := range phi.Edges {
					if l.Contains(phi.Block().Preds[i]) {
						in = append(in, e)
					}
				}
				carried = append(carried, carriedValue{in, func(v ssa.Value) bool { return flow.Unwrap(v) == ssa.Value(phi) }})
				return false
			}
			if ld, ok := x.(*ssa.UnOp); ok && ld.Op == token.MUL && l.Contains(ld.Block()) {
				if alloc, ok := ld.X.(*ssa.Alloc); ok && !l.Contains(alloc.Block()) {
					var in []ssa.Value
					stores := make(map[*ssa.BasicBlock]bool)
					for _, r := range *alloc.Referrers() {
						if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(alloc) && l.Contains(st.Block()) {
							in = append(in, st.Val)
							stores[st.Block()] = true
						}
					}
					if everyWayRound(fail, l, func(b *ssa.BasicBlock) bool { return stores[b] }) {
						carried = append(carried, carriedValue{in, func(v ssa.Value) bool {
							u, ok := flow.Unwrap(v).(*ssa.UnOp)
							return ok && u.Op == token.MUL && u.X == ssa.Value(alloc)
						}})
					}
					return false
				}
			}
			instr, ok := x.(ssa.Instruction)
			return ok && l.Contains(instr.Block())
		})
	}
	for _, cv := range carried {
		var picker *flow.Place
		// picked reports whether v, carried back to the header, is the picker's answer to the
		// previous target (server = ups.SwitchIf(server)), through the phis that merge the
		// ways round: the picker moves on from the target that failed.
		var picked func(v ssa.Value, depth int) bool
		picked = func(v ssa.Value, depth int) bool {
			switch x := flow.Unwrap(v).(type) {
			case *ssa.Phi:
				if x.Block() == l.Header || depth > 4 {
					return false
				}
				for _, e := range x.Edges {
					if !picked(e, depth+1) {
						return false
					}
				}
				return len(x.Edges) > 0
			case *ssa.Call:
				if x == d.call || receiverOf(x) == nil || !slices.ContainsFunc(x.Call.Args, cv.prev) {
					return false
				}
				p := flow.PlaceOf(receiverOf(x)) // (f.ups, loaded again each round)
				if p.Root == nil || !madeBefore(p.Root, l) || picker != nil && p != *picker {
					return false
				}
				picker = &p
				return true
			}
			return false
		}
		all := len(cv.in) > 0
		for _, v := range cv.in {
			if !picked(v, 0) {
				all = false
				break
			}
		}
		if all && picker != nil {
			return true
		}
	}
	return false
}

// fillsTarget reports whether pick is handed the address of a variable that the attempt reads
// (read, from attemptReads), directly or as a field of a value it sends (http.Request{URL: &u}).
func fillsTarget(pick ssa.CallInstruction, read map[any]bool) bool {
	for _, a := range pick.Common().Args {
		u, ok := a.(*ssa.Alloc)
		if !ok {
			continue
		}
		if read[u] {
			return true
		}
		for _, ref := range *u.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Val == ssa.Value(u) {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && read[flow.PlaceOf(fa.X).Root] {
					return true
				}
			}
		}
	}
	return false
}

// answerEnds reports whether a branch of loop l that tests an answer of the picker can leave
// the loop (ok, err := urls.Peek(&u); if !ok { break }).
func answerEnds(l *loops.Loop, fn *ssa.Function, picker flow.Place) bool {
	for _, b := range l.Blocks(fn) {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok || !l.CanExit(b) {
			continue
		}
		found := false
		flow.Backward(ifInstr.Cond, 8, func(v ssa.Value) bool {
			if c, ok := v.(*ssa.Call); ok && receiverOf(c) != nil && flow.PlaceOf(receiverOf(c)) == picker {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
