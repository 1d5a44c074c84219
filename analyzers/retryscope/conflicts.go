package retryscope

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// ConflictTaken reports whether the function that makes call takes a 409 Conflict answer to it
// as success: a test singles out 409, of the status of the response call returned or of a
// status field of a type its error was asserted to (e.Status == 409 after err.(APIError)), and
// every return on the side where it matched hands back a nil error. The server refuses a
// second copy of what the request creates (a folder of that name exists), and the program
// takes the refusal as done: a create made idempotent by the name the client chose.
func ConflictTaken(call ssa.CallInstruction) bool {
	fn := call.Parent()
	if fn == nil || len(fn.Blocks) == 0 || !returnsError(fn) {
		return false
	}
	all := func(*ssa.BasicBlock) bool { return true }
	for _, b := range fn.Blocks {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok || b.Succs[0] == b.Succs[1] {
			continue
		}
		cmp, ok := unNot(ifInstr.Cond).(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			continue
		}
		match := countNots(ifInstr.Cond) % 2
		if cmp.Op == token.NEQ {
			match = 1 - match
		}
		switch resp, _, code, ok := statusCompare(cmp); {
		case ok && code == 409 && producer(resp, all) == call:
		case conflictField(cmp) && typedFrom(cmp, call, all):
		default:
			continue
		}
		if nilErrorsFrom(b.Succs[match]) {
			return true
		}
	}
	return false
}

// conflictField reports whether cmp compares an integer field holding an HTTP status with 409.
func conflictField(cmp *ssa.BinOp) bool {
	_, _, code, ok := fieldCompare(cmp)
	return ok && code == 409
}

// returnsError reports whether fn's last result is an error.
func returnsError(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	return res.Len() > 0 && typeis.ErrorLike(res.At(res.Len()-1).Type())
}

// nilErrorsFrom reports whether every return reachable from b hands back a nil error (its last
// result), and one is reachable.
func nilErrorsFrom(b *ssa.BasicBlock) bool {
	found := false
	for x := range flow.Forward([]*ssa.BasicBlock{b}, nil) {
		ret, ok := lastInstr(x).(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 || !flow.IsNil(flow.Unwrap(ret.Results[len(ret.Results)-1])) {
			return false
		}
		found = true
	}
	return found
}
