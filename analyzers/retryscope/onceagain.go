package retryscope

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// A recursion that calls itself at most once: under a flag it hands back turned off, or one the
// way to it sets.

// onceAgain reports whether the recursive call (or, through a helper, the helper's call back:
// createTableAndRetry(in) calling write(in, false)) passes a constant boolean to a parameter
// whose test sends control away from the call when it has that value (if !retry { return
// c.write(msg, true) }), or is made under a test of a flag that the way to it sets to the
// value the test turns away (flagSetOnWay): the function recurses at most once.
func onceAgain(fn *ssa.Function, rc retryCall) bool {
	call, args := rc.call, rc.call.Common().Args
	if rc.back != nil {
		args = rc.back.Common().Args // (through a helper: what the helper hands back)
	}
	if flagSetOnWay(call) {
		return true
	}
	for i, a := range args {
		k, ok := flow.Unwrap(a).(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Bool || i >= len(fn.Params) {
			continue
		}
		p := fn.Params[i]
		for _, ref := range *p.Referrers() {
			var ifInstr *ssa.If
			holds := constant.BoolVal(k.Value) // the condition's value in the recursive call
			switch r := ref.(type) {
			case *ssa.If:
				ifInstr = r
			case *ssa.UnOp:
				if r.Op != token.NOT || r.Referrers() == nil {
					continue
				}
				holds = !holds
				for _, rr := range *r.Referrers() {
					if x, ok := rr.(*ssa.If); ok {
						ifInstr = x
					}
				}
			}
			if ifInstr == nil {
				continue
			}
			away := ifInstr.Block().Succs[1] // the side not taken in the recursive call
			if !holds {
				away = ifInstr.Block().Succs[0]
			}
			if away.Dominates(call.Block()) {
				return true
			}
		}
	}
	return false
}

// flagSetOnWay reports whether call runs under a test of a boolean kept in a struct field (a
// bool, or an atomic.Bool: if !c.useFallback.Load()) and, between that test and call, the
// function sets the flag to the value that turns the test away (c.useFallback.Store(true)):
// the call itself finds the flag set.
func flagSetOnWay(call *ssa.Call) bool {
	for d := call.Block().Idom(); d != nil; d = d.Idom() {
		ifInstr, ok := lastInstr(d).(*ssa.If)
		if !ok || len(d.Succs) != 2 {
			continue
		}
		flag, ok := flagPlace(unNot(ifInstr.Cond))
		if !ok {
			continue
		}
		// The flag's value on the side that leads to the call.
		side := -1
		for i, succ := range d.Succs {
			if succ.Dominates(call.Block()) {
				side = i
			}
		}
		if side < 0 {
			continue
		}
		value := (side == 0) != (countNots(ifInstr.Cond)%2 == 1)
		for b := call.Block(); b != nil && b != d; b = b.Idom() {
			if setsFlag(b, flag, !value, call) {
				return true
			}
		}
	}
	return false
}

// flagPlace returns where the boolean v is kept, when v loads a struct field (c.retried) or
// calls an atomic.Bool's Load (c.useFallback.Load()).
func flagPlace(v ssa.Value) (flow.Place, bool) {
	switch x := flow.Unwrap(v).(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && typeis.Bool(x.Type()) {
			return flow.PlaceOf(fa), true
		}
	case *ssa.Call:
		if id := flow.ID(flow.Callee(x.Common())); id == (flow.FuncID{Pkg: "sync/atomic", Recv: "Bool", Name: "Load"}) && len(x.Call.Args) == 1 {
			return flow.PlaceOf(flow.Unwrap(x.Call.Args[0])), true
		}
	}
	return flow.Place{}, false
}

// setsFlag reports whether block b (before call, when it holds call) stores the constant value
// into the flag kept at place.
func setsFlag(b *ssa.BasicBlock, place flow.Place, value bool, call *ssa.Call) bool {
	for _, instr := range b.Instrs {
		if instr == call {
			return false
		}
		switch x := instr.(type) {
		case *ssa.Store:
			if fa, ok := x.Addr.(*ssa.FieldAddr); ok && flow.PlaceOf(fa) == place {
				if k, ok := flow.BoolConst(x.Val); ok && k == value {
					return true
				}
			}
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			args := x.Call.Args
			if id == (flow.FuncID{Pkg: "sync/atomic", Recv: "Bool", Name: "Store"}) && len(args) == 2 && flow.PlaceOf(flow.Unwrap(args[0])) == place {
				if k, ok := flow.BoolConst(args[1]); ok && k == value {
					return true
				}
			}
		}
	}
	return false
}
