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
	"github.com/idemlint/idemlint/analyzers/remote"
)

// Changes: what makes the next attempt send something else (a recovery, not a retry).

// changesRequest returns a test of whether a block changes what the attempt d.call sends next:
// it stores into a field or variable that the attempt reads on the way to its call, makes the
// value of a variable that the next attempt is handed (access = c.accessFor(url)), or makes a
// call that leaves the process or may fail (a refreshed token, a re-registration). Making the
// request anew (http.NewRequest, req.Clone) is not a change: it sends the same.
func (st *state) changesRequest(d decision, skip ...ssa.CallInstruction) func(*ssa.BasicBlock) bool {
	read := attemptReads(d)
	return func(blk *ssa.BasicBlock) bool {
		for _, instr := range blk.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && slices.Contains(skip, c) {
				continue
			}
			if c, ok := instr.(ssa.CallInstruction); ok && (atomicAccess(c.Common(), "Store", "Add", "Swap", "CompareAndSwap", "And", "Or")) {
				if fv := atomicField(c.Common().Args[0]); fv != nil && read[fv] {
					return true // atomic.StoreInt32(&c.closed, 1), c.closed.Store(true)
				}
			}
			switch x := instr.(type) {
			case *ssa.Store:
				switch a := x.Addr.(type) {
				case *ssa.FieldAddr:
					if fv := flow.FieldVar(a); fv != nil && read[fv] {
						return true
					}
				case *ssa.Global:
					if read[a] {
						return true
					}
				case *ssa.Alloc:
					if read[a] && newValue(x.Val) != nil {
						return true
					}
				}
			case ssa.CallInstruction:
				if read[x] && x != d.call {
					return true
				}
				if _, started := x.(*ssa.Go); started || x == d.call || sleepDuration(x) != nil || st.onAnswer(x, d) {
					continue // (closing or reading the answer changes nothing the next attempt sends)
				}
				if r := st.rem.Reach(x); r == remote.ReachRemote || fallible(x) && (r == remote.ReachUnknown || st.ownFunc(x)) {
					return true
				}
			}
		}
		return false
	}
}

// takesFromAnswer reports whether loop l hands the next attempt something the answer to this
// one told it (a nonce, a challenge, a session to resume): a variable or field that the
// attempt d.call reads takes, in the round, a value computed from that call's results. The
// next attempt sends what the server asked for: a hand-shake step, not the same request again.
func takesFromAnswer(l *loops.Loop, d decision) bool {
	fn := d.block.Parent()
	read := attemptReads(d)
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				var target any
				switch a := x.Addr.(type) {
				case *ssa.FieldAddr:
					if fv := flow.FieldVar(a); fv != nil {
						target = fv
					}
				case *ssa.Global:
					target = a
				case *ssa.Alloc:
					target = a
				}
				if target != nil && read[target] && fromAnswer(x.Val, d.call) {
					return true
				}
			case *ssa.Phi:
				for _, e := range x.Edges {
					if c := newValue(e); c != nil && read[ssa.CallInstruction(c)] && fromAnswer(c, d.call) {
						return true
					}
				}
			case *ssa.Call:
				// sess.UpdateNonce(ctx, hdr): a function of the package that stores what it is
				// handed from the answer into a field that a function making the attempt's
				// input (sess.NewProof(...)) loads.
				callee := x.Call.StaticCallee()
				if callee == nil || callee.Pkg != fn.Pkg || callee == fn || len(callee.Blocks) == 0 {
					continue
				}
				for i, a := range x.Call.Args {
					if i < len(callee.Params) && fromAnswer(a, d.call) && storedForInput(callee, callee.Params[i], read) {
						return true
					}
				}
			}
		}
	}
	return false
}

// storedForInput reports whether fn stores its parameter p into a field that one of the
// functions in read (those that make what the attempt sends) loads.
func storedForInput(fn *ssa.Function, p *ssa.Parameter, read map[any]bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, isField := st.Addr.(*ssa.FieldAddr)
			if !isField || !flow.SameValue(st.Val, p) {
				continue
			}
			fv := flow.FieldVar(fa)
			for k := range read {
				if g, ok := k.(*ssa.Function); ok && fv != nil && loadsField(g, fv) {
					return true
				}
			}
		}
	}
	return false
}

// loadsField reports whether fn reads the field fv (loads it, or takes its address).
func loadsField(fn *ssa.Function, fv *types.Var) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if fa, ok := instr.(*ssa.FieldAddr); ok && flow.FieldVar(fa) == fv {
				return true
			}
		}
	}
	return false
}

// fromAnswer reports whether v is computed from the results of call.
func fromAnswer(v ssa.Value, call ssa.CallInstruction) bool {
	cv, ok := call.(*ssa.Call)
	if !ok {
		return false
	}
	found := false
	flow.Backward(v, 32, func(x ssa.Value) bool {
		found = found || x == ssa.Value(cv)
		return !found
	})
	return found
}

// attemptReads returns what the attempt d.call reads: the fields and variables loaded on the
// way to its call, directly or atomically (atomic.LoadInt32(&c.closed), c.closed.Load()), and
// the calls whose results a variable it reads takes on the way round.
func attemptReads(d decision) map[any]bool {
	read := make(map[any]bool)
	sent := append([]ssa.Value{d.call.Common().Value}, d.call.Common().Args...)
	sent = append(sent, headersSet(d.call, sent)...)
	walked := make(map[ssa.Value]bool)
	for len(sent) > 0 {
		v := sent[0]
		sent = sent[1:]
		if walked[v] {
			continue
		}
		walked[v] = true
		flow.Backward(v, 32, func(x ssa.Value) bool {
			if a, ok := x.(*ssa.Alloc); ok {
				read[a] = true // a variable whose address a method is handed: tok.Header()
			}
			if phi, ok := x.(*ssa.Phi); ok {
				for _, e := range phi.Edges {
					if c := newValue(e); c != nil {
						read[ssa.CallInstruction(c)] = true
					}
				}
				// And what picks among its values (token := c.token; if c.fallback.Load() {
				// token = c.backup }).
				if idom := phi.Block().Idom(); idom != nil {
					if ifInstr, ok := lastInstr(idom).(*ssa.If); ok {
						sent = append(sent, ifInstr.Cond)
					}
				}
			}
			if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
				switch a := load.X.(type) {
				case *ssa.FieldAddr:
					read[flow.FieldVar(a)] = true
				case *ssa.Global:
					read[a] = true
				case *ssa.Alloc:
					read[a] = true // a variable whose address a method takes
				}
			}
			if c, ok := x.(*ssa.Call); ok {
				if atomicAccess(c.Common(), "Load") {
					if fv := atomicField(c.Call.Args[0]); fv != nil {
						read[fv] = true
					}
				} else if callee := c.Call.StaticCallee(); callee != nil && callee.Pkg == d.call.Parent().Pkg && callee != d.call.Parent() {
					getterReads(callee, read) // c.signingKey(): the fields it returns from
					read[callee] = true       // (a function that makes what the attempt sends)
				}
			}
			return true
		})
	}
	return read
}

// atomicField returns the struct field that v, the address an atomic operation is handed, is:
// &c.closed, or c.flag of type *atomic.Bool.
func atomicField(v ssa.Value) *types.Var {
	switch x := flow.Unwrap(v).(type) {
	case *ssa.FieldAddr:
		return flow.FieldVar(x)
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return flow.FieldVar(fa)
		}
	}
	return nil
}

// getterReads adds to read the fields that fn, a small function of the package (a getter such
// as c.signingKey(), which picks among fields), loads directly or atomically.
func getterReads(fn *ssa.Function, read map[any]bool) {
	if len(fn.Blocks) > 6 {
		return
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
					read[flow.FieldVar(fa)] = true
				}
			case *ssa.Call:
				if atomicAccess(x.Common(), "Load") {
					if fv := atomicField(x.Call.Args[0]); fv != nil {
						read[fv] = true
					}
				}
			}
		}
	}
}

// headersSet returns the values that the function writes into the headers of a request among
// args, the attempt call's arguments (req.Header.Set("Authorization", tok.Header()),
// req.SetBasicAuth(user, pass)): the attempt sends them too.
func headersSet(call ssa.CallInstruction, args []ssa.Value) []ssa.Value {
	reqs := make(map[ssa.Value]bool)
	for _, a := range args {
		flow.Backward(a, 16, func(x ssa.Value) bool {
			if typeis.Request(x.Type()) {
				reqs[x] = true
			}
			return true
		})
	}
	var out []ssa.Value
	for _, b := range call.Parent().Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok || len(c.Call.Args) < 2 {
				continue
			}
			id := flow.ID(flow.Callee(c.Common()))
			switch id {
			case flow.FuncID{Pkg: "net/http", Recv: "Header", Name: "Set"}, flow.FuncID{Pkg: "net/http", Recv: "Header", Name: "Add"}:
				// req.Header.Set: the receiver is a load of the request's Header field.
				if load, ok := flow.Unwrap(c.Call.Args[0]).(*ssa.UnOp); ok {
					if fa, ok := load.X.(*ssa.FieldAddr); ok && reqs[fa.X] {
						out = append(out, c.Call.Args[1:]...)
					}
				}
			case flow.FuncID{Pkg: "net/http", Recv: "Request", Name: "SetBasicAuth"}:
				if reqs[c.Call.Args[0]] {
					out = append(out, c.Call.Args[1:]...)
				}
			}
		}
	}
	return out
}

// newValue returns the call that makes v, when v is a value asked of a call other than a
// request made anew (http.NewRequest, req.Clone: the same request again).
func newValue(v ssa.Value) *ssa.Call {
	c, ok := flow.Unwrap(v).(*ssa.Call)
	if !ok || slices.ContainsFunc(tupleTypes(c), typeis.Request) {
		return nil
	}
	return c
}

// fallsBackOnce reports whether loop l goes round at most once, and to another target: every
// way back to the header passes a test that the way round itself makes false, and the
// attempt d.call is handed what that way round changed. The test compares a variable with the
// value every way round gives it (baseDom != hostDom, with baseDom = hostDom; continue), or
// reads a flag every way round sets (if !tried { tried = true; addr = backup; continue }).
// It falls back from one target to another; it does not retry.
func fallsBackOnce(l *loops.Loop, d decision) bool {
	fn := d.block.Parent()
	vars := roundValues(fn, l)
	swapped := make(map[flow.Place]bool) // places a way round rewrote so that its test fails
	h := l.Header
	// falsified reports whether the test ending block b, on its side need, cannot hold again
	// once the way round from p has set the variables.
	falsified := func(ifInstr *ssa.If, need int, p *ssa.BasicBlock) bool {
		b := ifInstr.Block()
		if need < 0 || b.Succs[0] == b.Succs[1] || !l.Contains(b) {
			return false
		}
		if at, ok := swappedAway(ifInstr, need, p, l); ok {
			swapped[at] = true
			return true
		}
		v, x, known := evalOnReturn(ifInstr.Cond, vars)
		if !known || v == (need == 0) {
			return false
		}
		// A variable in memory must be set on this way round, after the test.
		a, inMemory := x.(*ssa.Alloc)
		return !inMemory || setBetween(a, b.Succs[need], p)
	}
	backs := 0
	for _, p := range h.Preds {
		if !l.Contains(p) {
			continue
		}
		backs++
		// The test ending p itself (if cond { continue } jumping straight back), then those
		// above it.
		guarded := false
		if ifInstr, ok := lastInstr(p).(*ssa.If); ok {
			guarded = falsified(ifInstr, slices.Index(p.Succs, h), p)
		}
		for ifInstr, side := range flow.TestsAbove(p) {
			if guarded || !l.Contains(ifInstr.Block()) {
				break
			}
			guarded = falsified(ifInstr, side, p)
		}
		if !guarded {
			return false
		}
	}
	// The attempt is handed a variable that the way round changes.
	cc := d.call.Common()
	found := false
	var visit func(a ssa.Value, depth int)
	visit = func(a ssa.Value, depth int) {
		flow.Backward(a, 16, func(x ssa.Value) bool {
			if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
				x = load.X
			}
			if swapped[flow.PlaceOf(x)] {
				found = true // opts.Registry, rewritten from https:// to http://
				return false
			}
			if c, ok := x.(*ssa.Call); ok && depth == 0 && l.Contains(c.Block()) {
				// c, err := l.client(opts.Registry): a client made in the loop from the
				// rewritten address.
				for _, arg := range c.Call.Args {
					visit(arg, depth+1)
				}
				return !found
			}
			if fa, ok := x.(*ssa.FieldAddr); ok {
				x = fa.X // (baseDom.ASCII)
			}
			found = found || vars[x] != nil && changedOnReturn(x, vars[x], l)
			return !found
		})
	}
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		if !found {
			visit(a, 0)
		}
	}
	return found && backs > 0
}

// swappedAway reports whether the test ending ifInstr's block, whose side need goes round
// through p, reads a string kept in memory and the way round rewrites it so that the test
// cannot take that side again: strings.HasPrefix(opts.Registry, "https://") with
// opts.Registry = strings.Replace(opts.Registry, "https://", "http://", 1), or s == "tcp"
// with s = "udp". It returns the place rewritten.
func swappedAway(ifInstr *ssa.If, need int, p *ssa.BasicBlock, l *loops.Loop) (flow.Place, bool) {
	cond := unNot(ifInstr.Cond)
	holds := countNots(ifInstr.Cond) % 2 // the side taken where cond holds
	if need != holds {
		return flow.Place{}, false // it goes round where cond is false: not such a test
	}
	var x ssa.Value
	var want string
	test := ""
	switch c := cond.(type) {
	case *ssa.Call:
		id := flow.ID(flow.Callee(c.Common()))
		if id.Pkg != "strings" || id.Recv != "" || len(c.Call.Args) != 2 || id.Name != "HasPrefix" && id.Name != "Contains" {
			return flow.Place{}, false
		}
		k, ok := flow.StringConst(c.Call.Args[1])
		if !ok || k == "" {
			return flow.Place{}, false
		}
		x, want, test = c.Call.Args[0], k, id.Name
	case *ssa.BinOp:
		if c.Op != token.EQL {
			return flow.Place{}, false
		}
		a, b := c.X, c.Y
		if _, ok := flow.StringConst(a); ok {
			a, b = b, a
		}
		k, ok := flow.StringConst(b)
		if !ok {
			return flow.Place{}, false
		}
		x, want, test = a, k, "=="
	}
	load, ok := flow.Unwrap(x).(*ssa.UnOp)
	if !ok || load.Op != token.MUL || !l.Contains(load.Block()) {
		return flow.Place{}, false
	}
	at := flow.PlaceOf(load.X)
	from := ifInstr.Block().Succs[need]
	for _, b := range l.Blocks(p.Parent()) {
		if !from.Dominates(b) || !b.Dominates(p) {
			continue
		}
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if ok && flow.PlaceOf(st.Addr) == at && rewritesAway(st.Val, want, test) {
				return at, true
			}
		}
	}
	return flow.Place{}, false
}

// rewritesAway reports whether v, a string stored where test (HasPrefix, Contains or == with
// want) held, makes it fail: another constant, or the string with want replaced by a
// replacement that cannot bring it back.
func rewritesAway(v ssa.Value, want, test string) bool {
	if k, ok := flow.StringConst(v); ok {
		switch test {
		case "==":
			return k != want
		case "HasPrefix":
			return !strings.HasPrefix(k, want)
		}
		return !strings.Contains(k, want)
	}
	c, ok := flow.Unwrap(v).(*ssa.Call)
	if !ok || test == "==" {
		return false
	}
	id := flow.ID(flow.Callee(c.Common()))
	if id.Pkg != "strings" || id.Recv != "" || len(c.Call.Args) < 3 {
		return false
	}
	old, ok1 := flow.StringConst(c.Call.Args[1])
	repl, ok2 := flow.StringConst(c.Call.Args[2])
	if !ok1 || !ok2 || old != want || strings.Contains(repl, want) || strings.HasPrefix(want, repl) {
		return false
	}
	if id.Name == "Replace" && len(c.Call.Args) == 4 {
		// Replacing the first occurrence removes the prefix; a later one may remain.
		n, ok := flow.IntConst(c.Call.Args[3])
		return ok && (n < 0 || n >= 1 && test == "HasPrefix")
	}
	return id.Name == "ReplaceAll"
}

// roundValues returns the variables of fn that every way round loop l sets to the same
// value, made outside the loop, with that value: a phi at the header, or a local variable in
// memory that the loop writes only with that value.
func roundValues(fn *ssa.Function, l *loops.Loop) map[ssa.Value]ssa.Value {
	vars := make(map[ssa.Value]ssa.Value)
	invariant := func(v ssa.Value) bool {
		instr, ok := v.(ssa.Instruction)
		return !ok || !l.Contains(instr.Block()) // (lastErr = err is made anew each round)
	}
	for _, instr := range l.Header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		var v ssa.Value
		for i, e := range phi.Edges {
			if i < len(l.Header.Preds) && l.Contains(l.Header.Preds[i]) {
				if v != nil && !sameValue(v, e) {
					v = nil
					break
				}
				v = e
			}
		}
		if v != nil && invariant(v) {
			vars[phi] = v
		}
	}
	for _, a := range fn.Locals {
		var v ssa.Value
		ok := a.Referrers() != nil
		for _, r := range *a.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr == a && l.Contains(r.Block()) {
					ok = ok && (v == nil || sameValue(v, r.Val)) && invariant(r.Val)
					v = r.Val
				}
			case *ssa.FieldAddr:
				for _, u := range *r.Referrers() {
					if _, load := u.(*ssa.UnOp); !load {
						ok = false // written through a field, or its address handed on
					}
				}
			case *ssa.UnOp, *ssa.DebugRef:
			default:
				ok = false
			}
		}
		if ok && v != nil {
			vars[a] = v
		}
	}
	return vars
}

// setBetween reports whether a store into a lies on every way from block from to block to:
// in a block that from dominates and that dominates to.
func setBetween(a *ssa.Alloc, from, to *ssa.BasicBlock) bool {
	for _, r := range *a.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a && from.Dominates(st.Block()) && st.Block().Dominates(to) {
			return true
		}
	}
	return false
}

// changedOnReturn reports whether variable x enters loop l with another value than again,
// the one the way round gives it.
func changedOnReturn(x, again ssa.Value, l *loops.Loop) bool {
	switch x := x.(type) {
	case *ssa.Phi:
		for i, e := range x.Edges {
			if (i >= len(l.Header.Preds) || !l.Contains(l.Header.Preds[i])) && !sameValue(e, again) {
				return true
			}
		}
	case *ssa.Alloc:
		for _, r := range *x.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == x && !l.Contains(st.Block()) && !sameValue(st.Val, again) {
				return true
			}
		}
	}
	return false
}

// evalOnReturn evaluates the boolean cond when the variables hold the values the loop gives
// them on its way round (vars): x != y with x given y is false, !flag with flag given true is
// false. It returns the variable the result depends on; known is false when the value cannot
// be told.
func evalOnReturn(cond ssa.Value, vars map[ssa.Value]ssa.Value) (v bool, x ssa.Value, known bool) {
	subst := func(v ssa.Value) (ssa.Value, ssa.Value) {
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			if a, ok := load.X.(*ssa.Alloc); ok && vars[a] != nil {
				return vars[a], a
			}
		}
		if p, ok := v.(*ssa.Phi); ok && vars[p] != nil {
			return vars[p], p
		}
		return v, nil
	}
	if val, at := subst(cond); at != nil {
		if k, ok := val.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.Bool {
			return constant.BoolVal(k.Value), at, true // a flag
		}
	}
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			v, x, known = evalOnReturn(c.X, vars)
			return !v, x, known
		}
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return false, nil, false
		}
		a, at := subst(c.X)
		b, bt := subst(c.Y)
		if at == nil {
			at = bt
		}
		if at == nil {
			return false, nil, false
		}
		if sameValue(a, b) {
			return c.Op == token.EQL, at, true
		}
		ka, okA := a.(*ssa.Const)
		kb, okB := b.(*ssa.Const)
		if okA && okB && ka.Value != nil && kb.Value != nil {
			return c.Op == token.NEQ, at, true // network == "tcp6", with network given "tcp4"
		}
		return false, nil, false
	}
	return false, nil, false
}

// sameValue reports whether a and b are the same SSA value, or equal constants.
func sameValue(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ka, ok1 := a.(*ssa.Const)
	kb, ok2 := b.(*ssa.Const)
	return ok1 && ok2 && ka.Value != nil && kb.Value != nil && types.Identical(ka.Type(), kb.Type()) && constant.Compare(ka.Value, token.EQL, kb.Value)
}

// flagChanges reports whether a boolean flag that the way back sets (a phi at the loop's
// header that enters as one constant and comes round as the other: fallback = true;
// continue) guards, in the next round and before the attempt, a block that changes what the
// attempt is handed (if fallback { req.Opt["syntax"] = image }): the request changes, once.
func flagChanges(l *loops.Loop, d decision) bool {
	fn := d.block.Parent()
	roots := make(map[ssa.Value]bool)
	for _, a := range d.call.Common().Args {
		roots[flow.PlaceOf(flow.Unwrap(a)).Root] = true
	}
	at := d.call.Block()
	for _, instr := range l.Header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok || !typeis.Bool(phi.Type()) {
			continue
		}
		first, again, ok := flagValues(phi, l)
		if !ok || first == again {
			continue
		}
		for _, b := range fn.Blocks {
			if !l.Contains(b) || len(b.Instrs) == 0 || at == nil {
				continue
			}
			ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok || unNot(ifInstr.Cond) != phi {
				continue
			}
			taken := 0 // the side taken when the flag has the value it comes round with
			if again == (countNots(ifInstr.Cond)%2 == 1) {
				taken = 1
			}
			if side := b.Succs[taken]; l.Contains(side) && changesHanded(side, roots) && reachesInRound(side, at, l) {
				return true
			}
		}
	}
	return false
}

// changesHanded reports whether block b stores into, or updates a map of, a value rooted
// in roots (what the attempt is handed).
func changesHanded(b *ssa.BasicBlock, roots map[ssa.Value]bool) bool {
	for _, instr := range b.Instrs {
		switch x := instr.(type) {
		case *ssa.Store:
			if roots[flow.PlaceOf(x.Addr).Root] {
				return true
			}
		case *ssa.MapUpdate:
			if roots[flow.PlaceOf(x.Map).Root] {
				return true
			}
		}
	}
	return false
}

// reachesInRound reports whether to is reached from from within one round of loop l (not
// through its header).
func reachesInRound(from, to *ssa.BasicBlock, l *loops.Loop) bool {
	for b := range flow.Forward([]*ssa.BasicBlock{from}, func(_, next *ssa.BasicBlock) bool {
		return l.Contains(next) && next != l.Header
	}) {
		if b == to {
			return true
		}
	}
	return false
}
