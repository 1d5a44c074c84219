package keys

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
)

// A Keyer answers whether a request carries an idempotency key, for one check's pass: it
// keeps the sinks of the functions it has looked at. Each check makes its own (NewKeyer), so
// checks that run at once share nothing.
type Keyer struct {
	r      *Result
	memo   map[*ssa.Function][]Keying
	handed map[*ssa.Parameter]bool // handedID's answers
	// calling holds the calls of a callback that keyedIn came through (fn(r) in the helper
	// that made r): the callback's own code, judged already, not a hook of unknown effect.
	calling map[ssa.CallInstruction]bool
}

// NewKeyer returns a Keyer over the package's keys model.
func (r *Result) NewKeyer() *Keyer {
	return &Keyer{r: r, memo: make(map[*ssa.Function][]Keying), handed: make(map[*ssa.Parameter]bool), calling: make(map[ssa.CallInstruction]bool)}
}

// Keyed reports whether the operation of call carries an idempotency key: a sink is set on
// one of the values it is made of (the request, its header, its body, its context, its
// params), or a function that sends a key builds or is handed one of them.
func (k *Keyer) Keyed(call ssa.CallInstruction) bool {
	return k.keyParam(call) || k.keyedIn(call.Parent(), operands(call), 0) || k.carriesID(call)
}

// carriesID reports whether the operation of call is made of a fresh unique value made before
// the attempts: by a generator in a function around call's (the closure a retry helper runs),
// or in call's own function outside a loop that holds call. It is an identifier sent with the
// request (a batch's message id in the body marshalled once, a client-chosen id in its URL),
// the same on every attempt, which the receiver can deduplicate on. Whether it does is the
// API's contract; the client has done its part. A sequence number counts too: a counter of a
// long-lived value that the function advances on every call (c.seq++ in a deferred function,
// atomic.AddUint64(&c.seq, 1), c.seq.Add(1)), read before the attempts.
func (k *Keyer) carriesID(call ssa.CallInstruction) bool {
	fn := call.Parent()
	ls := loops.Of(fn)
	before := func(x ssa.Instruction) bool {
		if x.Parent() == fn {
			return slices.ContainsFunc(ls, func(l *loops.Loop) bool { return l.Contains(call.Block()) && !l.Contains(x.Block()) })
		}
		for g := fn.Parent(); g != nil; g = g.Parent() {
			if x.Parent() == g {
				return true
			}
		}
		return false
	}
	found := false
	for _, v := range operands(call) {
		flow.Backward(v, 512, func(x ssa.Value) bool {
			switch x := x.(type) {
			case *ssa.Call:
				found = found || before(x) && k.r.identifier(x)
			case *ssa.Parameter:
				found = found || k.handedID(x)
			}
			return !found
		})
	}
	if found {
		return true
	}
	// A sequence number reaches the request as data: not as an index or a modulo that picks
	// a target (c.addrs[atomic.AddUint32(&c.next, 1)%n]).
	for _, v := range operands(call) {
		flow.Backward(v, 512, func(x ssa.Value) bool {
			switch x := x.(type) {
			case *ssa.Index, *ssa.IndexAddr, *ssa.Lookup:
				return false
			case *ssa.BinOp:
				return x.Op != token.REM
			case *ssa.Call:
				found = found || before(x) && atomicAdvance(x)
			case *ssa.UnOp:
				found = found || x.Op == token.MUL && before(x) && advanced(x)
			}
			return !found
		})
	}
	return found
}

// handedID reports whether parameter p is, at every call the package makes of its function
// (directly, or through a method of an interface the function's receiver implements), a fresh
// unique value the caller made (id := uuid.New().String(); scorer.Score(..., id)): an
// identifier chosen once for the operation, the same on every attempt made inside. A function
// the package never calls is not known to be handed one.
func (k *Keyer) handedID(p *ssa.Parameter) bool {
	if done, ok := k.handed[p]; ok {
		return done
	}
	k.handed[p] = false // a recursion hands on what it was given
	fn := p.Parent()
	idx := slices.Index(fn.Params, p)
	calls := k.r.callsOf(fn)
	if idx < 0 || len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		i := idx
		if c.Common().IsInvoke() {
			i-- // the receiver is not among an invoke's arguments
		}
		args := c.Common().Args
		if i < 0 || i >= len(args) {
			return false
		}
		made := false
		flow.Backward(args[i], 64, func(x ssa.Value) bool {
			switch x := x.(type) {
			case *ssa.Call:
				made = made || k.r.identifier(x)
			case *ssa.Parameter:
				made = made || x != p && k.handedID(x)
			}
			return !made
		})
		if !made {
			return false
		}
	}
	k.handed[p] = true
	return true
}

// atomicAdvance reports whether call adds to a counter that outlives the call (a field, a
// package variable) atomically and returns the new value: atomic.AddUint64(&c.seq, 1),
// c.seq.Add(1). Each call gets another value.
func atomicAdvance(call *ssa.Call) bool {
	id := flow.ID(flow.Callee(call.Common()))
	if id.Pkg != "sync/atomic" || !strings.HasPrefix(id.Name, "Add") || len(call.Call.Args) == 0 {
		return false
	}
	return lasting(call.Call.Args[0])
}

// lasting reports whether addr is a place that outlives a call: a package variable, or a
// field of a value the function is given (its receiver or a parameter, also as a closure
// captures it), not of a value it makes.
func lasting(addr ssa.Value) bool {
	addr = flow.Unwrap(addr)
	if _, ok := addr.(*ssa.FieldAddr); !ok {
		_, global := addr.(*ssa.Global)
		return global
	}
	root := flow.PlaceOf(addr).Root
	if fv, ok := root.(*ssa.FreeVar); ok {
		if root = flow.Captured(fv); root == nil {
			return false
		}
	}
	_, global := root.(*ssa.Global)
	return global || flow.Given(root)
}

// advanced reports whether load reads a counter (a field or package variable) that its
// function adds to on every call: in a function it defers, or before the load on every way
// to it (m.sn++ in defer func() { m.sn++; m.mu.Unlock() }()).
func advanced(load *ssa.UnOp) bool {
	if !lasting(load.X) {
		return false
	}
	fn := load.Parent()
	want := flow.PlaceOf(load.X)
	same := func(addr ssa.Value, bind func(ssa.Value) ssa.Value) bool {
		p := flow.PlaceOf(addr)
		return p.Path == want.Path && bind(p.Root) == want.Root
	}
	adds := func(f *ssa.Function, bind func(ssa.Value) ssa.Value) []*ssa.Store {
		var out []*ssa.Store
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || !same(st.Addr, bind) {
					continue
				}
				if sum, ok := st.Val.(*ssa.BinOp); ok && sum.Op == token.ADD {
					if old, ok := sum.X.(*ssa.UnOp); ok && old.Op == token.MUL && same(old.X, bind) {
						out = append(out, st)
					}
				}
			}
		}
		return out
	}
	self := func(v ssa.Value) ssa.Value { return v }
	for _, st := range adds(fn, self) {
		if st.Block().Dominates(load.Block()) {
			return true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok || !b.Dominates(load.Block()) {
				continue
			}
			mc, ok := d.Call.Value.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			closure, ok := mc.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			bind := func(v ssa.Value) ssa.Value {
				if fv, ok := v.(*ssa.FreeVar); ok {
					if i := slices.Index(closure.FreeVars, fv); i >= 0 && i < len(mc.Bindings) {
						return mc.Bindings[i]
					}
				}
				return v
			}
			if len(adds(closure, bind)) > 0 {
				return true
			}
		}
	}
	return false
}

// keyParam reports whether call hands a function a value for a parameter the function names
// as an idempotency key (SendWebhook(ctx, ..., idempotencyKey string, ...)), or a value read
// from a field so named (delivery.IdempotencyKey): the operation is sent with its key. An
// empty constant is no key.
func (k *Keyer) keyParam(call ssa.CallInstruction) bool {
	cc := call.Common()
	fn := flow.Callee(cc)
	if fn == nil {
		return false
	}
	sig := fn.Signature()
	args := cc.Args
	if sig.Recv() != nil && !cc.IsInvoke() {
		args = args[1:]
	}
	for i, a := range args {
		if s, ok := flow.StringConst(a); ok && s == "" {
			continue
		}
		if i < sig.Params().Len() && k.r.IsName(sig.Params().At(i).Name()) {
			return true
		}
		if ld, ok := flow.Unwrap(a).(*ssa.UnOp); ok && ld.Op == token.MUL {
			if fa, ok := ld.X.(*ssa.FieldAddr); ok {
				if _, named := k.r.fieldSink(fa); named {
					return true
				}
			}
		}
	}
	return false
}

func operands(call ssa.CallInstruction) []ssa.Value {
	cc := call.Common()
	vals := append([]ssa.Value{}, cc.Args...)
	if cc.IsInvoke() {
		vals = append(vals, cc.Value)
	}
	return vals
}

// keyedIn reports whether one of the values that vals (in fn) are made of is keyed.
func (k *Keyer) keyedIn(fn *ssa.Function, vals []ssa.Value, depth int) bool {
	parts := make(map[ssa.Value]bool)
	var made []ssa.CallInstruction
	for _, v := range vals {
		flow.Backward(v, 512, func(x ssa.Value) bool {
			parts[x] = true
			if call, ok := x.(*ssa.Call); ok {
				made = append(made, call)
			}
			return true
		})
	}
	// A callback's parameter (c.do(ctx, func(r *resty.Request) ...)): the value the helper
	// that calls it passes, keyed there (the helper sets the header on every request).
	if depth < 2 {
		for x := range parts {
			p, ok := x.(*ssa.Parameter)
			if !ok {
				continue
			}
			byFn := make(map[*ssa.Function][]ssa.Value)
			for _, a := range flow.CallbackArgs(p) {
				if in, ok := a.(ssa.Instruction); ok {
					byFn[in.Parent()] = append(byFn[in.Parent()], a)
				}
			}
			for g, args := range byFn {
				var marked []ssa.CallInstruction
				for _, a := range args {
					for _, r := range *a.Referrers() {
						if c, ok := r.(ssa.CallInstruction); ok && c.Common().StaticCallee() == nil && !k.calling[c] {
							k.calling[c] = true
							marked = append(marked, c)
						}
					}
				}
				keyed := k.keyedIn(g, args, depth+1)
				for _, c := range marked {
					delete(k.calling, c)
				}
				if keyed {
					return true
				}
			}
		}
	}
	// A parameter of a type with a key field, which the caller fills in (an activity's input
	// that its workflow keyed), encoded into the request.
	for x := range parts {
		switch x.(type) {
		case *ssa.Parameter, *ssa.FreeVar:
			if k.r.KeyField(x.Type()) != "" && usedWhole(x, parts) {
				return true
			}
		}
	}
	// Sinks in the function and the functions around it (a request made outside a closure).
	for g := fn; g != nil; g = g.Parent() {
		for _, kg := range k.keyingsOf(g) {
			if kg.On != nil && (parts[kg.On] || storedInto(kg.On, parts)) {
				return true
			}
			if v, ok := kg.Instr.(ssa.Value); ok && parts[v] {
				return true
			}
		}
		// A function that sends a key, handed one of the parts or making one; a function of
		// the package that sets a key on a part it is handed (a do(req) helper).
		for call := range flow.Calls(g) {
			if k.keysParam(call, parts) || !k.calling[call] && hook(call, parts) {
				return true
			}
			if h, ok := protocolHeader(call); ok && (parts[h] || storedInto(h, parts)) {
				return true // a write the protocol makes safe to send again
			}
			if !k.r.SendsKey(call) {
				continue
			}
			if v := call.Value(); v != nil && parts[v] {
				return true
			}
			for _, a := range operands(call) {
				if parts[a] || parts[Root(a)] {
					return true
				}
			}
		}
	}
	// Functions of this package that make one of the parts: keyed inside.
	if depth < 2 {
		for _, call := range made {
			callee := call.Common().StaticCallee()
			if callee == nil || callee.Pkg != fn.Pkg || len(callee.Blocks) == 0 || callee == fn {
				continue
			}
			var rets []ssa.Value
			for ret := range flow.Returns(callee) {
				rets = append(rets, ret.Results...)
			}
			if k.keyedIn(callee, rets, depth+1) {
				return true
			}
		}
	}
	return false
}

// usedWhole reports whether the struct x (or x pointing to one) goes into the request as a
// whole (json.Marshal(in)), not only through fields read from it (in.Amount).
func usedWhole(x ssa.Value, parts map[ssa.Value]bool) bool {
	refs := x.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.FieldAddr, *ssa.Field:
		case ssa.Value:
			if parts[r] {
				return true
			}
		}
	}
	return false
}

// keysParam reports whether call calls a function of the package that sets a key on one of
// its parameters, handed one of the parts.
func (k *Keyer) keysParam(call ssa.CallInstruction, parts map[ssa.Value]bool) bool {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg != call.Parent().Pkg || len(callee.Blocks) == 0 {
		return false
	}
	args := call.Common().Args
	for _, kg := range k.keyingsOf(callee) {
		if p, ok := kg.On.(*ssa.Parameter); ok {
			if i := slices.Index(callee.Params, p); i >= 0 && i < len(args) && (parts[args[i]] || parts[Root(args[i])]) {
				return true
			}
		}
	}
	return false
}

func (k *Keyer) keyingsOf(fn *ssa.Function) []Keying {
	out, ok := k.memo[fn]
	if !ok {
		out = k.r.Keyings(fn)
		k.memo[fn] = out
	}
	return out
}

// hook reports whether call calls a function value (an option, a request hook) handed one of
// the parts: what it sets on the request is not known, so the request is taken as keyed.
func hook(call ssa.CallInstruction, parts map[ssa.Value]bool) bool {
	cc := call.Common()
	if cc.IsInvoke() || cc.StaticCallee() != nil {
		return false
	}
	if _, builtin := cc.Value.(*ssa.Builtin); builtin {
		return false
	}
	for _, a := range cc.Args {
		if parts[a] || parts[Root(a)] {
			return true
		}
	}
	return false
}

// storedInto reports whether v is stored into a field of one of the parts (req.Header =
// http.Header{"Idempotency-Key": ...}).
func storedInto(v ssa.Value, parts map[ssa.Value]bool) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if st, ok := r.(*ssa.Store); ok && st.Val == v && parts[Root(st.Addr)] {
			return true
		}
	}
	return false
}

// protocolHeader returns the header call sets when it sets one that names a protocol whose
// writes are safe to send again (knowledge.IdempotentProtocol): the request's Root.
func protocolHeader(call ssa.CallInstruction) (ssa.Value, bool) {
	name, value, ok := flow.HeaderSet(call)
	if !ok || !knowledge.IdempotentProtocol(name, value) {
		return nil, false
	}
	return Root(call.Common().Args[0]), true
}
