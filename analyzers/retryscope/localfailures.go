package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// Failures a loop goes round on that only this process makes: `if errors.Is(err,
// ErrRestarting) { time.Sleep(10 * time.Millisecond); continue }`, where the package returns
// ErrRestarting only from a function that stays in the process (a slot refused while a local
// child restarts). Its attempt may reach a remote service, but what it waits out is its own
// contention: not the herd jitter spreads, and not a failure a remote layer retried.

// namesOwn reports whether decision d (in loop l) goes round only on an error the test names:
// a sentinel, a type or a text the program singles out (not a done context's error, which
// such a test does not match). The target is returned.
func namesOwn(d decision, l *loops.Loop) (ssa.Value, bool) {
	ifInstr, ok := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	cond := ifInstr.Cond
	match := d.block.Succs[countNots(cond)%2]
	if match != d.block.Succs[1-d.success] {
		return nil, false // the match is the way out; any other error goes round
	}
	if test, ok := localTest(unNot(cond), func(v ssa.Value) bool { return producer(v, l.Contains) == d.call }); ok {
		return test, true
	}
	target, ok := singlesOut(unNot(cond), d.call, l.Contains)
	if !ok {
		return nil, false
	}
	if on, _ := targetKind(target, unNot(cond)); on != FailOther {
		return nil, false
	}
	return target, true
}

// namesOwnError is namesOwn's verdict alone: a done context's error does not go round.
func namesOwnError(d decision, l *loops.Loop) bool {
	_, ok := namesOwn(d, l)
	return ok
}

// localTest returns cond when it is a library's predicate that holds only for an error of
// this machine's own resources (os.IsNotExist(err)), on an error for which of holds.
func localTest(cond ssa.Value, of func(ssa.Value) bool) (*ssa.Call, bool) {
	c, ok := cond.(*ssa.Call)
	if !ok || len(c.Call.Args) != 1 || !knowledge.LocalErrorTest(flow.ID(flow.Callee(c.Common()))) {
		return nil, false
	}
	return c, of(c.Call.Args[0])
}

// madeLocally reports whether target, tested on the error that call by returned, is a
// sentinel of this package that only functions staying in the process make (return it, wrap
// it, store it), or one of the file system's errors (fs.ErrNotExist, or a test that holds
// only for them: os.IsNotExist) made by this machine's own resources: by does not reach a
// remote call, and no function of this package that may leave the process hands one on (a
// store that answers a 404 with fs.ErrNotExist).
func (st *state) madeLocally(target ssa.Value, by ssa.CallInstruction) bool {
	if c, ok := target.(*ssa.Call); ok {
		return knowledge.LocalErrorTest(flow.ID(flow.Callee(c.Common()))) && st.localResources(by)
	}
	if c, ok := flow.Unwrap(target).(*ssa.Const); ok {
		return knowledge.LocalErrno(c.Type(), c.Value) // bind's EADDRINUSE: this machine's own
	}
	load, ok := flow.Unwrap(target).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	switch {
	case !ok:
		return false
	case g.Pkg != st.ssaPkg:
		v, _ := g.Object().(*types.Var)
		return knowledge.LocalErrorVar(v) && st.localResources(by) // fs.ErrExist
	}
	local, seen := st.localSentinels[g]
	if !seen {
		local = st.madeOnlyLocally(g)
		st.localSentinels[g] = local
	}
	return local
}

// madeOnlyLocally reports whether some function of the package makes the sentinel g, and
// every one that does stays in the process.
func (st *state) madeOnlyLocally(g *ssa.Global) bool {
	found := false
	for _, fn := range st.funcs {
		if !makesSentinel(fn, g) {
			continue
		}
		found = true
		if st.rem.MayLeave(slices.Collect(flow.Calls(fn))) {
			return false
		}
	}
	return found
}

// makesSentinel reports whether fn hands on the sentinel g as an error: returns it, wraps it
// (as an argument made into an interface: fmt.Errorf's %w) or stores it; not a comparison.
func makesSentinel(fn *ssa.Function, g *ssa.Global) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			load, ok := instr.(*ssa.UnOp)
			if !ok || load.X != g || load.Op != token.MUL || load.Referrers() == nil {
				continue
			}
			for _, r := range *load.Referrers() {
				switch r.(type) {
				case *ssa.Return, *ssa.MakeInterface, *ssa.Store:
					return true
				}
			}
		}
	}
	return false
}

// goesRoundOnLocal reports whether loop scope s goes round only on errors that only local code
// makes: some decision singles one out and goes round on it, and no decision's failure side
// can go round except through such a match (if err == nil { return }; if errors.Is(err,
// syscall.EADDRINUSE) { continue }; return err).
func (st *state) goesRoundOnLocal(s *Scope) bool {
	if s.Loop == nil || s.Fn == nil {
		return false
	}
	local := st.localMatches(s)
	if len(local) == 0 {
		return false
	}
	ds := decisions(s.Fn, s.Loop.Contains)
	any := false
	for e := range local {
		any = any || s.Loop.CanRepeat(e.To)
	}
	for _, d := range ds {
		if d.policy {
			continue
		}
		fail := loops.Edge{From: d.block, To: d.block.Succs[1-d.success]}
		if local[fail] {
			continue
		}
		if s.Loop.CanRepeatAvoiding(fail.To, func(e loops.Edge) bool { return local[e] }) {
			return false
		}
	}
	return any
}

// localMatches returns the edges of loop scope s taken when a test in it (errors.Is, ==, a
// type assertion) singles out, in an error a call of the loop returned, one that only local
// code makes: the match sides.
func (st *state) localMatches(s *Scope) map[loops.Edge]bool {
	out := make(map[loops.Edge]bool)
	for _, b := range s.Loop.Blocks(s.Fn) {
		if len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cond := unNot(ifInstr.Cond)
		var by ssa.CallInstruction // the call that returned the error tested
		returned := func(v ssa.Value) bool {
			if typeis.ErrorLike(v.Type()) {
				by = producer(v, s.Loop.Contains)
			}
			return by != nil
		}
		target, ok := ssa.Value(nil), false
		if test, isTest := localTest(cond, returned); isTest {
			target, ok = test, true
		} else {
			target, ok = singlesOutOf(cond, returned)
		}
		if !ok {
			continue
		}
		if on, _ := targetKind(target, cond); on == FailOther && st.madeLocally(target, by) {
			out[loops.Edge{From: b, To: b.Succs[countNots(ifInstr.Cond)%2]}] = true
		}
	}
	return out
}

// localFailure reports whether the failure of decision d in scope s stays in the process: its
// call does, or it singles out an error only local code makes.
func (st *state) localFailure(s *Scope, d decision, reach func(ssa.CallInstruction) remote.Reach) bool {
	if reach(d.call) == remote.ReachLocal && !judgesRemote(d.call, s.Loop, reach) {
		return true
	}
	target, ok := namesOwn(d, s.Loop)
	return ok && st.madeLocally(target, d.call)
}

// localResources reports whether a file system error that call by returned comes from this
// machine's own resources: by does not reach a remote call, and no function of this package
// that may leave the process hands on one of the errors knowledge.LocalErrorVar names.
func (st *state) localResources(by ssa.CallInstruction) bool {
	if by != nil && st.rem.Reach(by) == remote.ReachRemote {
		return false
	}
	if st.remoteFileErrors == 0 {
		st.remoteFileErrors = 2
		for _, fn := range st.funcs {
			if handsOnFileError(fn) && st.rem.MayLeave(slices.Collect(flow.Calls(fn))) {
				st.remoteFileErrors = 1
				break
			}
		}
	}
	return st.remoteFileErrors == 2
}

// handsOnFileError reports whether fn hands on (returns, wraps, stores) an error variable
// that knowledge.LocalErrorVar names (fs.ErrNotExist).
func handsOnFileError(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			load, ok := instr.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				continue
			}
			if g, ok := load.X.(*ssa.Global); ok {
				if v, _ := g.Object().(*types.Var); knowledge.LocalErrorVar(v) && makesSentinel(fn, g) {
					return true
				}
			}
		}
	}
	return false
}
