package retryscope

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// countingVerdict reports whether the decisive call of a loop is a verdict of the package
// that counts the attempts itself and gives up after a limit: a method or function returning
// whether to go round (retry, err := s.shouldRetry(thread, err)), which steps a counter kept
// across its calls (a field, an element of a field: s.attempts[thread] += 1) and answers
// "go round" only past a test of that counter whose other side answers "stop". The loop is
// then bounded by that limit.
func countingVerdict(call ssa.CallInstruction) bool {
	c, ok := call.(*ssa.Call)
	if !ok {
		return false
	}
	fn := c.Call.StaticCallee()
	if fn == nil || fn.Pkg != call.Parent().Pkg || len(fn.Blocks) == 0 {
		return false
	}
	res := fn.Signature.Results()
	verdict := -1
	for i := range res.Len() {
		if typeis.Bool(res.At(i).Type()) {
			verdict = i
			break
		}
	}
	if verdict < 0 {
		return false
	}
	answers := func(ret *ssa.Return) (bool, bool) {
		if verdict >= len(ret.Results) {
			return false, false
		}
		k, ok := flow.Unwrap(ret.Results[verdict]).(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
			return false, false
		}
		return constant.BoolVal(k.Value), true
	}
	var goRound []*ssa.BasicBlock // the blocks returning "go round"
	for ret := range flow.Returns(fn) {
		if v, ok := answers(ret); ok && v {
			goRound = append(goRound, ret.Block())
		} else if !ok {
			return false // an answer the walk cannot read
		}
	}
	if len(goRound) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		n := len(b.Instrs)
		if n == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[n-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifInstr.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.GEQ && cmp.Op != token.GTR && cmp.Op != token.LSS && cmp.Op != token.LEQ {
			continue
		}
		if !steppedSlot(fn, cmp.X) && !steppedSlot(fn, cmp.Y) {
			continue
		}
		for side := range 2 {
			stop, goOn := b.Succs[side], b.Succs[1-side]
			if onlyStops(stop, answers) && dominatesAll(goOn, goRound) {
				return true
			}
		}
	}
	return false
}

// steppedSlot reports whether v loads a counter that fn keeps across its calls (a field of
// its receiver or of a parameter, an element of one, a package variable) and steps.
func steppedSlot(fn *ssa.Function, v ssa.Value) bool {
	load, ok := flow.Unwrap(v).(*ssa.UnOp)
	return ok && load.Op == token.MUL && kept(load.X) && storesStepIn(load.X, fn.Blocks)
}

// kept reports whether the address addr outlives a call: rooted in a parameter (the
// receiver) or a package variable, through fields and elements.
func kept(addr ssa.Value) bool {
	for range 16 {
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			addr = x.X
		case *ssa.Parameter, *ssa.Global:
			return true
		default:
			return false
		}
	}
	return false
}

// sameSlot reports whether the addresses a and b denote the same place: the same field path,
// and for elements the same index value.
func sameSlot(a, b ssa.Value) bool {
	ia, okA := a.(*ssa.IndexAddr)
	ib, okB := b.(*ssa.IndexAddr)
	if okA != okB {
		return false
	}
	if okA {
		return ia.Index == ib.Index && flow.PlaceOf(ia.X) == flow.PlaceOf(ib.X)
	}
	return flow.PlaceOf(a) == flow.PlaceOf(b)
}

// onlyStops reports whether every return reachable from b answers "stop" (false).
func onlyStops(b *ssa.BasicBlock, answers func(*ssa.Return) (bool, bool)) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{b}
	found := false
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if n := len(x.Instrs); n > 0 {
			if ret, ok := x.Instrs[n-1].(*ssa.Return); ok {
				if v, ok := answers(ret); !ok || v {
					return false
				}
				found = true
			}
		}
		stack = append(stack, x.Succs...)
	}
	return found
}

// dominatesAll reports whether b dominates every block of bs.
func dominatesAll(b *ssa.BasicBlock, bs []*ssa.BasicBlock) bool {
	for _, x := range bs {
		if !b.Dominates(x) {
			return false
		}
	}
	return true
}
