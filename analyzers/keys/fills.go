package keys

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Fill-ins seen from a caller: a request helper that makes a key when the caller gives none
// (`key := cfg.Key; if method == http.MethodPost && key == "" { key = uuid.NewString() }`) and
// sends it sends a key on every call that passes its other tests. A call that gives the
// helper constants satisfying them (c.request(ctx, "POST", ...)) is keyed; one that does not
// (a PATCH) is not, whatever the helper does for others.

// fillIns returns the generations of fn (a function of this package) that fill in a missing key
// and reach a sink; infer records them (Result.fills), before the checks ask.
func (r *Result) fillIns(fn *ssa.Function) []Generation {
	var out []Generation
	for _, g := range r.generations(fn) {
		if g.Call.Parent() != fn {
			continue // a closure's: when it runs, the model does not follow
		}
		if f := r.Follow(g); len(f.Sinks) > 0 && f.FillsIn(anywhere) {
			out = append(out, g)
		}
	}
	return out
}

// fillsInFor reports whether call, a call of callee, always has a key made for it by one of
// callee's fill-ins: every test on the way to the fill-in is the key's own emptiness test or a
// comparison of a parameter with a constant that call's constant argument passes.
func (r *Result) fillsInFor(call ssa.CallInstruction, callee *ssa.Function) bool {
	for _, g := range r.fills[callee] {
		if guardsPass(g, call, callee) {
			return true
		}
	}
	return false
}

func guardsPass(g Generation, call ssa.CallInstruction, fn *ssa.Function) bool {
	b := g.Call.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		if len(d.Instrs) == 0 || len(d.Succs) != 2 {
			continue
		}
		ifInstr, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		side := -1
		for i, s := range d.Succs {
			if s.Dominates(b) && !d.Succs[1-i].Dominates(b) {
				side = i
			}
		}
		if side < 0 || reaches(d.Succs[1-side], b) {
			continue // both ways lead to it (a loop's test, whose exit follows its body)
		}
		if branch, _ := emptyTest(ifInstr.Cond); branch == side {
			continue // the key's emptiness (FillsIn checked whose)
		}
		taken, ok := paramTest(ifInstr.Cond, call, fn)
		if !ok || taken != (side == 0) {
			return false
		}
	}
	return true
}

// reaches reports whether block to can run after from.
func reaches(from, to *ssa.BasicBlock) bool {
	for x := range flow.Forward([]*ssa.BasicBlock{from}, func(_, _ *ssa.BasicBlock) bool { return true }) {
		if x == to {
			return true
		}
	}
	return false
}

// paramTest evaluates cond, a comparison of a parameter of fn with a constant (method ==
// http.MethodPost), for call's argument: whether it holds, and whether that argument is a
// constant at all.
func paramTest(cond ssa.Value, call ssa.CallInstruction, fn *ssa.Function) (holds, ok bool) {
	not := false
	for {
		u, isNot := cond.(*ssa.UnOp)
		if !isNot || u.Op != token.NOT {
			break
		}
		cond, not = u.X, !not
	}
	bin, isBin := cond.(*ssa.BinOp)
	if !isBin || bin.Op != token.EQL && bin.Op != token.NEQ {
		return false, false
	}
	p, isParam := bin.X.(*ssa.Parameter)
	k, isConst := bin.Y.(*ssa.Const)
	if !isParam || !isConst {
		p, isParam = bin.Y.(*ssa.Parameter)
		k, isConst = bin.X.(*ssa.Const)
	}
	i := slices.Index(fn.Params, p)
	args := call.Common().Args
	if !isParam || !isConst || k.Value == nil || i < 0 || i >= len(args) {
		return false, false
	}
	a, isArg := flow.Unwrap(args[i]).(*ssa.Const)
	if !isArg || a.Value == nil || a.Value.Kind() != k.Value.Kind() {
		return false, false
	}
	holds = constant.Compare(a.Value, bin.Op, k.Value)
	return holds != not, true
}
