package retryscope

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// This file finds the calls that hand a failed delivery back to its framework to be
// delivered again at once: the framework's redelivery is then the retry, and nothing paces it.

// A Requeue is a call that hands a delivery back to be delivered again at once, reached only
// after its handling failed.
type Requeue struct {
	Call      ssa.CallInstruction
	Framework string // the framework's name: "JetStream", "RabbitMQ"
	Later     string // the framework's call that hands a delivery back after a delay, or ""
}

// requeues returns the package's calls that hand a failed delivery back at once: a call of a
// framework's atOnce entries (with its requeue flag the constant true) on the failure side of
// the handling (the non-nil side of an error test, or the side of a test whose other side
// settles the delivery), not on a way the context's end takes (a shutdown hands messages back
// for another consumer), and with no wait between the failure and the call.
func (st *state) requeues() []*Requeue {
	var out []*Requeue
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			fw := atOnce(call)
			if fw == nil {
				continue
			}
			if failed, ok := fw.failureSide(call); failed && ok {
				out = append(out, &Requeue{Call: call, Framework: fw.Name, Later: fw.Later})
			}
		}
	}
	return out
}

// atOnce returns the framework whose delivery call hands back at once, or nil.
func atOnce(call ssa.CallInstruction) *framework {
	callee := flow.Callee(call.Common())
	if callee == nil {
		return nil
	}
	id := flow.ID(callee)
	for _, fw := range frameworks {
		e := fw.match(fw.AtOnce, id)
		if e == nil {
			continue
		}
		if e.Arg >= 0 {
			b, isConst := flow.BoolConst(flow.NewSite(call.Common(), callee).Arg(e.Arg))
			if !isConst || !b {
				return nil // requeued only when the code says so (!d.Redelivered: once)
			}
		}
		return fw
	}
	return nil
}

// settledBy reports whether call settles a delivery of fw.
func (fw *framework) settledBy(call ssa.CallInstruction) bool {
	callee := flow.Callee(call.Common())
	if callee == nil {
		return false
	}
	return fw.match(fw.Settles, flow.ID(callee)) != nil
}

// match returns the entry of es that id is: one of the library's packages, or of the
// entry's own path.
func (fw *framework) match(es []entry, id flow.FuncID) *entry {
	for i, e := range es {
		if e.Recv == id.Recv && slices.Contains(e.Names, id.Name) && (e.Path == id.Pkg || e.Path == "" && fw.lib.has(id.Pkg)) {
			return &es[i]
		}
	}
	return nil
}

// failureSide reports whether call runs only after the handling failed (failed), and whether
// nothing on its way says otherwise (ok): a test of the context's end, or a wait.
func (fw *framework) failureSide(call ssa.CallInstruction) (failed, ok bool) {
	b := call.Block()
	for _, instr := range b.Instrs {
		if instr == call {
			break
		}
		if c, isCall := instr.(ssa.CallInstruction); isCall && sleepDuration(c) != nil {
			return false, false // paced: a wait before handing it back
		}
	}
	for d := b; d != nil; d = d.Idom() {
		if d != b {
			for c := range flow.BlockCalls([]*ssa.BasicBlock{d}) {
				if !failed && sleepDuration(c) != nil {
					return false, false
				}
			}
		}
		if len(d.Preds) != 1 {
			continue
		}
		p := d.Preds[0]
		ifInstr, isIf := lastInstr(p).(*ssa.If)
		if !isIf {
			continue
		}
		side := 0
		if p.Succs[1] == d {
			side = 1
		}
		if onContextEnd(ifInstr, side) {
			return false, false // shutting down: handed back for another consumer
		}
		if errv, nilSide := testedError(ifInstr); errv != nil {
			if side != nilSide && !contextErr(errv) {
				failed = true
			}
			continue
		}
		if !failed && fw.settledFrom(p.Succs[1-side]) {
			if handlerChose(ifInstr.Cond) {
				return false, false // the handler asked for a requeue: the wrapper does as told
			}
			failed = true
		}
	}
	return failed, true
}

// handlerChose reports whether cond compares with a constant what a function value returned
// (switch handler(d) { case NackRequeue: ... }): a consumer library carrying out the action its
// user's handler picked, not code that decided to requeue a failure.
func handlerChose(cond ssa.Value) bool {
	cmp, ok := unNot(cond).(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return false
	}
	x, y := cmp.X, cmp.Y
	if _, isConst := y.(*ssa.Const); !isConst {
		x, y = y, x
	}
	if _, isConst := y.(*ssa.Const); !isConst {
		return false
	}
	chose := false
	flow.Backward(x, 16, func(v ssa.Value) bool {
		if c, ok := v.(*ssa.Call); ok {
			chose = chose || c.Call.StaticCallee() == nil && !c.Call.IsInvoke()
			return false
		}
		return !chose
	})
	return chose
}

// settledFrom reports whether a block that start dominates settles a delivery.
func (fw *framework) settledFrom(start *ssa.BasicBlock) bool {
	for _, b := range start.Parent().Blocks {
		if !start.Dominates(b) {
			continue
		}
		for c := range flow.BlockCalls([]*ssa.BasicBlock{b}) {
			if fw.settledBy(c) {
				return true
			}
		}
	}
	return false
}

// contextErr reports whether v is a context's Err().
func contextErr(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	return ok && c.Call.Method != nil && c.Call.Method.Name() == "Err" && typeis.Context(c.Call.Value.Type())
}

// onContextEnd reports whether side of the branch is taken when a context has ended: a test
// of ctx.Err() (its non-nil side), or the case of a select that receives from ctx.Done().
func onContextEnd(ifInstr *ssa.If, side int) bool {
	if errv, nilSide := testedError(ifInstr); errv != nil {
		return contextErr(errv) && side != nilSide
	}
	cmp, ok := unNot(ifInstr.Cond).(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL {
		return false
	}
	ex, ok := cmp.X.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return false
	}
	sel, ok := ex.Tuple.(*ssa.Select)
	k, isConst := flow.IntConst(cmp.Y)
	if !ok || !isConst || k < 0 || int(k) >= len(sel.States) || countNots(ifInstr.Cond)%2 == 1 {
		return false
	}
	done, ok := sel.States[k].Chan.(*ssa.Call)
	return ok && side == 0 && done.Call.Method != nil && done.Call.Method.Name() == "Done" &&
		typeis.Context(done.Call.Value.Type())
}
