package retryscope

import (
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// answersChallenge reports whether loop l goes round on the word of a value that was handed
// the request before it was sent and is handed the answer after (auth.Authorize(c, req, path);
// resp, err := c.Do(req); redo, err := auth.Verify(c, resp, path); if redo { continue }): the
// one that judged the answer prepares the next request, as an authenticator does with a
// challenge. The next round sends what the answer asked for, not the same request again.
func answersChallenge(l *loops.Loop, d decision) bool {
	fn := d.block.Parent()
	ifInstr, ok := lastInstr(d.block).(*ssa.If)
	if !ok {
		return false
	}
	var verdict *ssa.Call
	flow.Backward(ifInstr.Cond, 16, func(v ssa.Value) bool {
		if c, ok := v.(*ssa.Call); ok && verdict == nil && l.Contains(c.Block()) && receiverOf(c) != nil {
			verdict = c
		}
		return verdict == nil
	})
	if verdict == nil {
		return false
	}
	judge := flow.PlaceOf(receiverOf(verdict))
	for c := range flow.BlockCalls(l.Blocks(fn)) {
		call, ok := c.(*ssa.Call)
		if !ok || call == verdict || receiverOf(call) == nil || flow.PlaceOf(receiverOf(call)) != judge {
			continue
		}
		for _, a := range call.Call.Args {
			req := flow.Unwrap(a)
			if !typeis.Request(req.Type()) {
				continue
			}
			// The request it prepared is sent, and the verdict is handed the answer.
			for send := range flow.BlockCalls(l.Blocks(fn)) {
				if send == c || send == ssa.CallInstruction(verdict) || !flow.Before(call, send) || !handed(send, req) {
					continue
				}
				for _, va := range verdict.Call.Args {
					if fromAnswer(va, send) {
						return true
					}
				}
			}
		}
	}
	return false
}

// receiverOf returns the receiver of a method call, static or through an interface.
func receiverOf(c ssa.CallInstruction) ssa.Value {
	if c.Common().IsInvoke() {
		return c.Common().Value
	}
	return recvOf(c)
}

// handed reports whether call is given v as an argument.
func handed(call ssa.CallInstruction, v ssa.Value) bool {
	for _, a := range call.Common().Args {
		if flow.Unwrap(a) == v {
			return true
		}
	}
	return false
}
