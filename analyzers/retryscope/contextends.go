package retryscope

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// endsWithContext reports whether call calls a function of the package that returns a nil
// error once its context is done: a select in it whose case <-ctx.Done() goes straight to
// return nil (monitor(ctx) blocking until it is stopped). A loop that goes round on its
// failures then leaves once its context is done.
func endsWithContext(call ssa.CallInstruction) bool {
	fn := call.Common().StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() == 0 ||
		!typeis.Error(fn.Signature.Results().At(fn.Signature.Results().Len()-1).Type()) {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for k, state := range sel.States {
				if state.Dir == types.RecvOnly && contextDone(state.Chan) && caseReturnsNil(sel, k) {
					return true
				}
			}
		}
	}
	return false
}

// contextDone reports whether ch is ctx.Done() of a context.
func contextDone(ch ssa.Value) bool {
	c, ok := flow.Unwrap(ch).(*ssa.Call)
	if !ok {
		return false
	}
	id := flow.ID(flow.Callee(c.Common()))
	return id.Pkg == "context" && id.Recv == "Context" && id.Name == "Done"
}

// caseReturnsNil reports whether case k of sel leads, through blocks that only go on to one
// successor, to a return whose last result is nil.
func caseReturnsNil(sel *ssa.Select, k int) bool {
	if sel.Referrers() == nil {
		return false
	}
	for _, ref := range *sel.Referrers() {
		x, ok := ref.(*ssa.Extract)
		if !ok || x.Index != 0 || x.Referrers() == nil {
			continue
		}
		for _, use := range *x.Referrers() {
			cmp, ok := use.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL || cmp.Referrers() == nil {
				continue
			}
			if n, ok := flow.IntConst(cmp.Y); !ok || n != int64(k) {
				continue
			}
			for _, u := range *cmp.Referrers() {
				ifInstr, ok := u.(*ssa.If)
				if !ok {
					continue
				}
				b := ifInstr.Block().Succs[0]
				for i := 0; i < 4 && len(b.Succs) == 1; i++ {
					b = b.Succs[0]
				}
				if ret, ok := lastInstr(b).(*ssa.Return); ok && len(ret.Results) > 0 && flow.IsNil(returned(ret.Results[len(ret.Results)-1])) {
					return true
				}
			}
		}
	}
	return false
}
