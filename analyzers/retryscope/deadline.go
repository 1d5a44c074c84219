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
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// observesDeadline says whether calls check a context, pass a context on to a fallible call
// (one that returns an error; a logger does not count), or check the time. A context made
// from context.Background, TODO or WithoutCancel, with no deadline or cancellation added,
// bounds nothing.
func observesDeadline(calls []ssa.CallInstruction) DeadlineKind {
	return observesDeadlineIn(calls, 0)
}

// observesDeadlineIn is observesDeadline looking depth function literals deep: a literal
// handed to one of the calls (a circuit breaker's Do(name, func() error { ... })) runs as
// part of it.
func observesDeadlineIn(calls []ssa.CallInstruction, depth int) DeadlineKind {
	kind := DeadlineNone
	for _, call := range calls {
		c := call.Common()
		// Function literals the call runs: one handed to it, or one called where it is written
		// (err = func() error { ... }()): their calls are the caller's own.
		for _, a := range append([]ssa.Value{c.Value}, c.Args...) {
			if mc, ok := flow.Unwrap(a).(*ssa.MakeClosure); ok && depth < 2 {
				if fn, ok := mc.Fn.(*ssa.Function); ok {
					switch k := observesDeadlineIn(slices.Collect(flow.Calls(fn)), depth+1); k {
					case DeadlineContext:
						return k
					case DeadlineElapsed:
						kind = k
					}
				}
			}
		}
		id := flow.ID(flow.Callee(c))
		if id.Pkg == "time" && (id.Recv == "" && oneOf(id.Name, "Since", "Until") ||
			id.Recv == "Time" && oneOf(id.Name, "After", "Before", "Compare", "Sub")) && decides(call) {
			kind = DeadlineElapsed
		}
		if id.Pkg == "context" && id.Recv == "Context" && oneOf(id.Name, "Done", "Err", "Deadline") && bounded(c.Value) {
			return DeadlineContext
		}
		if watchesContext(c) {
			return DeadlineContext // sleep(ctx, d) that gives up when ctx is done
		}
		if carriesCtx(c) {
			return DeadlineContext // options.WithContext(ctx) handed on, b := backoff.New(ctx, cfg); b.Wait()
		}
		if r := c.Signature().Results(); !typeis.ReturnsError(c.Signature()) && (r.Len() == 0 || !typeis.HoldsError(r.At(r.Len()-1).Type())) {
			continue // (an outcome that holds the error, herr.IsNil(), can fail too)
		}
		for _, a := range c.Args {
			if typeis.Context(a.Type()) && bounded(a) || typeis.Request(a.Type()) && carriesContext(a) {
				return DeadlineContext
			}
		}
	}
	return kind
}

// decides reports whether the result of call, a time check, reaches a branch: compared, or
// itself a condition (if time.Since(start) > limit { return }). A duration only logged
// ("offline for %s") bounds nothing.
func decides(call ssa.CallInstruction) bool {
	v, ok := call.(ssa.Value)
	if !ok {
		return false
	}
	var reaches func(v ssa.Value, depth int) bool
	reaches = func(v ssa.Value, depth int) bool {
		if depth > 4 || v.Referrers() == nil {
			return false
		}
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.If:
				return true
			case *ssa.BinOp, *ssa.UnOp, *ssa.Phi, *ssa.Convert, *ssa.ChangeType:
				if reaches(r.(ssa.Value), depth+1) {
					return true
				}
			case *ssa.Store:
				return true // kept for a later test (elapsed = time.Since(start))
			case *ssa.Call:
				if b, isBuiltin := r.Call.Value.(*ssa.Builtin); isBuiltin && (b.Name() == "min" || b.Name() == "max") && reaches(r, depth+1) {
					return true
				}
				if selectedTimer(r) {
					return true // case <-time.After(time.Until(deadline)): return, beside the backoff's case
				}
				if r.Call.StaticCallee() != nil && r.Call.StaticCallee().Pkg == call.Parent().Pkg {
					return true // handed to a function of the package, which may test it
				}
			case *ssa.Return:
				return true // the caller's to test
			}
		}
		return false
	}
	return reaches(v, 0)
}

// selectedTimer reports whether call makes a timer (time.After, time.NewTimer) whose channel is
// one of the cases of a select with others: its firing is a way out the select decides on.
func selectedTimer(call *ssa.Call) bool {
	id := flow.ID(flow.Callee(call.Common()))
	if id.Pkg != "time" || id.Recv != "" || id.Name != "After" && id.Name != "NewTimer" || call.Referrers() == nil {
		return false
	}
	chans := []ssa.Value{call}
	if id.Name == "NewTimer" {
		chans = nil
		for _, r := range *call.Referrers() {
			if fa, ok := r.(*ssa.FieldAddr); ok && flow.FieldVar(fa) != nil && flow.FieldVar(fa).Name() == "C" && fa.Referrers() != nil {
				for _, l := range *fa.Referrers() {
					if load, ok := l.(*ssa.UnOp); ok {
						chans = append(chans, load)
					}
				}
			}
		}
	}
	for _, ch := range chans {
		if ch.Referrers() == nil {
			continue
		}
		for _, r := range *ch.Referrers() {
			if sel, ok := r.(*ssa.Select); ok && len(sel.States) > 1 {
				return true
			}
		}
	}
	return false
}

// carriesCtx reports whether a receiver or argument of c is a value the function made with a
// context that may bound it in a field (holdsContext), or by a call it handed one: request
// options built with options.WithContext(ctx) and passed to the call, a backoff made by
// backoff.New(ctx, cfg) whose Ongoing and Wait drive the loop. The context travels with the
// value.
func carriesCtx(c *ssa.CallCommon) bool {
	args := c.Args
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, args...)
	}
	for _, a := range args {
		if typeis.Context(a.Type()) {
			continue
		}
		if holdsContext(a) {
			return true
		}
		maker := flow.Unwrap(a)
		if ex, ok := maker.(*ssa.Extract); ok {
			maker = ex.Tuple
		}
		mc, ok := maker.(*ssa.Call)
		if !ok {
			continue
		}
		for _, ma := range mc.Call.Args {
			if typeis.Context(ma.Type()) && bounded(ma) {
				return true
			}
		}
	}
	return false
}

// holdsContext reports whether v is (on some path) a struct the function makes with a
// context that may bound it in one of its fields (req := &httpRequest{Context: ctx, ...}): the
// attempt it is handed sends with that context.
func holdsContext(v ssa.Value) bool {
	found := false
	flow.Backward(v, 32, func(x ssa.Value) bool {
		if a, ok := x.(*ssa.Alloc); ok {
			for _, st := range ownFields(a) {
				found = found || typeis.Context(st.Val.Type()) && bounded(st.Val)
			}
		}
		return !found
	})
	return found
}

// watchesContext reports whether c hands a context that may bound it to a function of the
// package (or a literal) that checks that context itself (its Done, Err or Deadline): a wait
// helper that returns when the context is done observes it, whatever it returns.
func watchesContext(c *ssa.CallCommon) bool {
	callee := c.StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 {
		return false
	}
	for i, a := range c.Args {
		if !typeis.Context(a.Type()) || !bounded(a) || i >= len(callee.Params) {
			continue
		}
		param := callee.Params[i]
		for call := range flow.Calls(callee) {
			id := flow.ID(flow.Callee(call.Common()))
			if id.Pkg == "context" && id.Recv == "Context" && oneOf(id.Name, "Done", "Err", "Deadline") && flow.SameValue(call.Common().Value, param) {
				return true
			}
		}
	}
	return false
}

// carriesContext reports whether an HTTP request carries a context that may bound it: one
// it was made with (NewRequestWithContext, WithContext, Clone: knowledge.RequestMakers and
// RequestCopies), or the caller's (a request received as a parameter, or copied from one); not
// one made by http.NewRequest.
func carriesContext(req ssa.Value) bool {
	carries := false
	flow.Backward(req, 64, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Parameter:
			carries = carries || typeis.Request(x.Type())
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			ctx := knowledge.NoArg
			if m, ok := knowledge.RequestMakers[id]; ok {
				ctx = m.Ctx
			} else if cp, ok := knowledge.RequestCopies[id]; ok {
				if cp.Ctx == knowledge.NoArg {
					return true // the copied request's context
				}
				ctx = cp.Ctx
			} else {
				return !carries
			}
			if ctx != knowledge.NoArg && ctx < len(x.Call.Args) {
				carries = carries || bounded(x.Call.Args[ctx])
			}
			return false
		}
		return !carries
	})
	return carries
}

// hasDeadline reports whether a context is known to carry a deadline: context.WithTimeout,
// WithDeadline or their Cause forms are on its way (a parameter's deadline is its caller's
// choice, unknown here).
func hasDeadline(ctx ssa.Value) bool {
	found := false
	flow.Backward(ctx, 64, func(x ssa.Value) bool {
		call, ok := x.(*ssa.Call)
		if !ok {
			return !found
		}
		id := flow.ID(flow.Callee(call.Common()))
		if remote.MakesDeadline(id) {
			found = true
		}
		return !found && id.Pkg == "context" && id.Recv == "" && oneOf(id.Name, "WithValue", "WithCancel", "WithCancelCause")
	})
	return found
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

// selectsOnSignal reports whether the code of fn in the blocks (in) selects on a signal
// channel: a channel of struct{} (a stop, quit or done channel, or a context's Done), or a
// channel kept in a struct field that another function of the package closes (a done chan
// interface{} closed by Shutdown): the caller can stop it as it can cancel a context.
func (st *state) selectsOnSignal(fn *ssa.Function, in func(*ssa.BasicBlock) bool) bool {
	for _, b := range fn.Blocks {
		if !in(b) {
			continue
		}
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, state := range sel.States {
				if c, ok := flow.Unwrap(state.Chan).(*ssa.Call); ok && flow.ID(flow.Callee(c.Common())).Pkg == "context" {
					continue // a context's Done: observesDeadline judges the context
				}
				if ch, ok := state.Chan.Type().Underlying().(*types.Chan); ok && state.Dir == types.RecvOnly {
					if s, ok := ch.Elem().Underlying().(*types.Struct); ok && s.NumFields() == 0 {
						return true
					}
					if _, fa := flow.FieldLoad(state.Chan); fa != nil && st.closedElsewhere(fn, flow.FieldVar(fa)) {
						return true
					}
				}
			}
		}
	}
	return false
}

// endsAtTimer reports whether loop l of fn selects on a one-shot timer made before the loop
// and not reset in it, and leaves when it fires (until := time.After(30 * time.Second); for {
// ...; select { case <-until: return ...; case <-time.After(wait): } }): once it fires the
// loop has had its time, an overall deadline.
func endsAtTimer(fn *ssa.Function, l *loops.Loop) bool {
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for i, state := range sel.States {
				if state.Dir != types.RecvOnly || !leavesOn(sel, i, l) {
					continue
				}
				maker := timeChanMaker(state.Chan)
				if maker == nil || maker.Parent() != fn || l.Contains(maker.Block()) {
					continue
				}
				if name := flow.ID(flow.Callee(maker.Common())).Name; name != "After" && name != "NewTimer" || resetIn(fn, l.Contains, maker) {
					continue
				}
				return true
			}
		}
	}
	return false
}

// stopsOnClose reports whether loop l leaves when a channel it receives from is closed (case
// _, ok := <-p.closeCh: if !ok { return }; v, ok := <-ch: if !ok { return }): whoever closes
// the channel stops it, as one who cancels a context does.
func stopsOnClose(l *loops.Loop) bool {
	for _, b := range l.Blocks(l.Header.Parent()) {
		if len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		ex, ok := unNot(ifInstr.Cond).(*ssa.Extract)
		if !ok || ex.Index != 1 {
			continue
		}
		// A channel someone closes: not a timer's, which nobody does (for range ticker.C).
		closable := func(ch ssa.Value) bool { return !typeis.TimeChan(ch.Type()) && timeChanMaker(ch) == nil }
		received := false
		switch t := ex.Tuple.(type) {
		case *ssa.Select:
			received = slices.ContainsFunc(t.States, func(st *ssa.SelectState) bool { return st.Dir == types.RecvOnly && closable(st.Chan) })
		case *ssa.UnOp:
			received = t.Op == token.ARROW && t.CommaOk && closable(t.X)
		}
		closedSide := 1 - countNots(ifInstr.Cond)%2 // the side taken when ok is false
		if received && !l.Contains(b.Succs[closedSide]) {
			return true
		}
	}
	return false
}

// stopsFromElsewhere reports whether loop l of fn can be left on a test of the program's state
// that the loop itself does not change: a struct field, read directly, through sync/atomic, or
// through a method of the package that returns it, that another function of the package
// stores (Disconnect sets the status; Close sets closed). Such a loop runs until another part
// of the program stops it, as one that watches a context or a stop channel does.
func (st *state) stopsFromElsewhere(fn *ssa.Function, l *loops.Loop) bool {
	for ifInstr := range exitTests(fn, l) {
		found := false
		flow.Backward(ifInstr.Cond, 32, func(x ssa.Value) bool {
			if fv := stateRead(x, l, 0); fv != nil && !storedIn(fn, l, fv) && st.storedElsewhere(fn, fv) {
				found = true
			}
			_, call := x.(*ssa.Call)
			return !found && !call
		})
		if found {
			return true
		}
	}
	return false
}

// stateRead returns the field that x reads, when x is a load of a field of a value the loop
// does not produce, made under a lock, an atomic load of one, or a call of a method of the
// package that takes nothing but its receiver and returns such a load
// (c.status.ConnectionStatus()). State that another goroutine changes is read with
// synchronisation; a field read without it (an option) is the program's configuration.
func stateRead(x ssa.Value, l *loops.Loop, depth int) *types.Var {
	switch x := x.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && (l == nil || !producedIn(fa.X, l)) && underLock(x) {
			return flow.FieldVar(fa)
		}
	case *ssa.Call:
		common := x.Common()
		if l != nil && producedIn(common.Value, l) {
			return nil
		}
		callee := common.StaticCallee()
		if callee != nil && callee.Signature.Recv() == nil && atomicCall(common) && strings.HasPrefix(callee.Name(), "Load") && len(common.Args) == 1 {
			if fa, ok := common.Args[0].(*ssa.FieldAddr); ok && (l == nil || !producedIn(fa.X, l)) {
				return flow.FieldVar(fa) // atomic.LoadInt32(&r.stopFlag)
			}
			return nil
		}
		if callee == nil || callee.Signature.Recv() == nil || len(common.Args) != 1 {
			return nil
		}
		if fa, ok := common.Args[0].(*ssa.FieldAddr); ok && atomicCall(common) {
			if l == nil || !producedIn(fa.X, l) {
				return flow.FieldVar(fa) // c.closed.Load()
			}
			return nil
		}
		if depth > 0 || len(callee.Blocks) == 0 || callee.Pkg != x.Parent().Pkg || l != nil && producedIn(common.Args[0], l) {
			return nil
		}
		var fv *types.Var
		for ret := range flow.Returns(callee) {
			if len(ret.Results) != 1 {
				return nil
			}
			var f *types.Var // through the result slot a deferred unlock makes
			flow.Backward(ret.Results[0], 8, func(v ssa.Value) bool {
				if f == nil {
					f = stateRead(v, nil, depth+1)
				}
				return f == nil
			})
			if f == nil || fv != nil && f != fv {
				return nil
			}
			fv = f
		}
		return fv
	}
	return nil
}

// storedIn reports whether the blocks of loop l write field fv (see writesField), or hand its
// address to a call other than sync/atomic's (c.status.set(connecting): a method that may
// write it).
func storedIn(fn *ssa.Function, l *loops.Loop, fv *types.Var) bool {
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			if writesField(instr) == fv {
				return true
			}
			if call, ok := instr.(ssa.CallInstruction); ok && len(call.Common().Args) > 0 && !atomicCall(call.Common()) {
				if fa, ok := call.Common().Args[0].(*ssa.FieldAddr); ok && flow.FieldVar(fa) == fv {
					return true
				}
			}
		}
	}
	return false
}

// storedElsewhere reports whether a production function of the package other than fn writes
// field fv (see writesField), through an index of the writers built once per package.
func (st *state) storedElsewhere(fn *ssa.Function, fv *types.Var) bool {
	return slices.ContainsFunc(st.fieldWriters()[fv], func(f *ssa.Function) bool { return f != fn })
}

// fieldWriters returns, for each struct field, the package's production functions that write
// it (see writesField), indexed once per package.
func (st *state) fieldWriters() map[*types.Var][]*ssa.Function {
	if st.writers == nil {
		st.writers = make(map[*types.Var][]*ssa.Function)
		for _, f := range st.funcs {
			if testcode.At(st.pass, f.Pos()) {
				continue
			}
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					if w := writesField(instr); w != nil && !slices.Contains(st.writers[w], f) {
						st.writers[w] = append(st.writers[w], f)
					}
				}
			}
		}
	}
	return st.writers
}

// writtenInLoop reports whether a call of loop l (in fn) writes field fv: the package's own
// function it calls, or one those call in turn (three calls deep), writes it.
func (st *state) writtenInLoop(fv *types.Var, fn *ssa.Function, l *loops.Loop) bool {
	writers := st.fieldWriters()[fv]
	if len(writers) == 0 {
		return false
	}
	seen := make(map[*ssa.Function]bool)
	var reaches func(f *ssa.Function, depth int) bool
	reaches = func(f *ssa.Function, depth int) bool {
		if f == nil || seen[f] || depth > 3 {
			return false
		}
		seen[f] = true
		f = flow.Generic(f) // (an instance of a generic method: the origin's body)
		if slices.Contains(writers, f) {
			return true
		}
		for c := range flow.BlockCalls(f.Blocks) {
			if reaches(c.Common().StaticCallee(), depth+1) {
				return true
			}
		}
		return false
	}
	for c := range flow.BlockCalls(l.Blocks(fn)) {
		if callee := c.Common().StaticCallee(); callee != nil && callee.Pkg == fn.Pkg && reaches(callee, 1) {
			return true
		}
	}
	return false
}

// closedElsewhere reports whether a production function of the package other than fn closes
// the channel kept in field fv (close(m.done) in Shutdown).
func (st *state) closedElsewhere(fn *ssa.Function, fv *types.Var) bool {
	for _, f := range st.fieldWriters()[fv] {
		if f == fn {
			continue
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if closesField(instr) == fv {
					return true
				}
			}
		}
	}
	return false
}

// closesField returns the field whose channel instr closes (close(m.done)), or nil.
func closesField(instr ssa.Instruction) *types.Var {
	c, ok := instr.(ssa.CallInstruction)
	if !ok {
		return nil
	}
	if bi, ok := c.Common().Value.(*ssa.Builtin); !ok || bi.Name() != "close" || len(c.Common().Args) != 1 {
		return nil
	}
	if _, fa := flow.FieldLoad(c.Common().Args[0]); fa != nil {
		return flow.FieldVar(fa)
	}
	return nil
}

// writesField returns the struct field instr writes: a store into it, a sync/atomic function
// or method other than a load given its address (c.closed.Store(true),
// atomic.StoreInt32(&c.state, 1)), or a close of the channel it holds (close(m.done));
// nil otherwise.
func writesField(instr ssa.Instruction) *types.Var {
	if fv := closesField(instr); fv != nil {
		return fv
	}
	switch x := instr.(type) {
	case *ssa.Store:
		if fa, ok := x.Addr.(*ssa.FieldAddr); ok {
			return flow.FieldVar(fa)
		}
	case ssa.CallInstruction:
		// Every function and method of sync/atomic writes but the loads.
		if args := x.Common().Args; len(args) > 0 && atomicCall(x.Common()) && !strings.HasPrefix(flow.Callee(x.Common()).Name(), "Load") {
			if fa, ok := args[0].(*ssa.FieldAddr); ok {
				return flow.FieldVar(fa)
			}
		}
	}
	return nil
}

// atomicCall reports whether c calls a function or method of sync/atomic.
func atomicCall(c *ssa.CallCommon) bool {
	return flow.ID(flow.Callee(c)).Pkg == "sync/atomic"
}

// underLock reports whether load runs after its function locked a sync.Mutex or RWMutex: a
// call of Lock or RLock in a block that dominates it (or earlier in its own block).
func underLock(load *ssa.UnOp) bool {
	b := load.Block()
	for _, d := range load.Parent().Blocks {
		if !d.Dominates(b) {
			continue
		}
		for _, instr := range d.Instrs {
			if d == b && instr == ssa.Instruction(load) {
				break
			}
			if call, ok := instr.(*ssa.Call); ok {
				id := flow.ID(flow.Callee(call.Common()))
				if id.Pkg == "sync" && (id.Name == "Lock" || id.Name == "RLock") {
					return true
				}
			}
		}
	}
	return false
}

// untilParam returns, for a hand-written loop with no attempt cap whose only bound is a
// context, 1 + the index of the parameter of its declaring function (receiver included) that
// every context the loop observes comes from, unchanged or with values or a cancel added; 0
// otherwise (a context with a deadline, or made in the function, or several).
func untilParam(s *Scope) int {
	if s.Loop == nil || s.Fn == nil || s.Attempts.Kind != BoundNone || s.Deadline != DeadlineContext || s.Poll || s.Lifecycle {
		return 0
	}
	root := flow.Root(s.Fn)
	var param *ssa.Parameter
	for call := range flow.BlockCalls(s.Loop.Blocks(s.Fn)) {
		c := call.Common()
		ctxs := slices.DeleteFunc(slices.Clone(c.Args), func(a ssa.Value) bool { return !typeis.Context(a.Type()) })
		if id := flow.ID(flow.Callee(c)); id.Pkg == "context" && id.Recv == "Context" {
			ctxs = append(ctxs, c.Value)
		}
		for _, v := range ctxs {
			p := ctxParam(v, root)
			if p == nil || param != nil && p != param {
				return 0
			}
			param = p
		}
	}
	if param == nil {
		return 0
	}
	return slices.Index(root.Params, param) + 1
}

// ctxParam returns the parameter of root that the context v is, or is derived from with
// values or a cancel added (no deadline); nil otherwise.
func ctxParam(v ssa.Value, root *ssa.Function) *ssa.Parameter {
	for range 8 {
		v = flow.Unwrap(v)
		if c := flow.Captured(v); c != nil {
			v = c
		}
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple
		}
		switch x := v.(type) {
		case *ssa.Parameter:
			if x.Parent() == root {
				return x
			}
			return nil
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			if id.Pkg != "context" || !oneOf(id.Name, "WithCancel", "WithCancelCause", "WithValue") || len(x.Call.Args) == 0 {
				return nil
			}
			v = x.Call.Args[0]
		default:
			return nil
		}
	}
	return nil
}

// handedCtx returns, for a call of a function whose retries end only with the context of its
// parameter i, 1 + the index of the parameter of caller that the call hands there; 0 when it
// hands another context.
func handedCtx(call ssa.CallInstruction, i int, caller *ssa.Function) int {
	args := call.Common().Args
	if call.Common().IsInvoke() || i >= len(args) {
		return 0
	}
	if p := ctxParam(args[i], caller); p != nil {
		return slices.Index(caller.Params, p) + 1
	}
	return 0
}

// UntilBackground reports whether call hands context.Background() or context.TODO() to a
// function whose retries have no attempt cap and end only when that context is done (its own
// loop, or retriesFact.UntilCtx): the retries never end.
func (r *Result) UntilBackground(call ssa.CallInstruction) bool {
	if call.Common().IsInvoke() {
		return false
	}
	idx := 0
	switch s, f := r.Reached(call); {
	case s != nil && s.Fn != nil && s.Reach != remote.ReachLocal && flow.Root(s.Fn) == call.Common().StaticCallee():
		idx = untilParam(s)
	case f != nil && !f.Local:
		idx = f.UntilCtx
	}
	if idx == 0 || idx > len(call.Common().Args) {
		return false
	}
	return neverDone(call.Common().Args[idx-1], 0)
}

// neverDone reports whether the context v is context.Background() or context.TODO(), also
// when kept in a variable that closures capture (ctx := context.Background(), then used in
// a callback as well): every value stored in it is one of them.
func neverDone(v ssa.Value, depth int) bool {
	v = flow.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL && depth < 4 {
		if alloc, ok := load.X.(*ssa.Alloc); ok {
			vals := flow.StoredWithClosures(alloc)
			return len(vals) > 0 && !slices.ContainsFunc(vals, func(x ssa.Value) bool { return !neverDone(x, depth+1) })
		}
	}
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	id := flow.ID(flow.Callee(c.Common()))
	return id.Pkg == "context" && id.Recv == "" && (id.Name == "Background" || id.Name == "TODO")
}
