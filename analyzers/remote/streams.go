package remote

import (
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
)

// streamed reports whether the response of the HTTP call is read as a stream in its function:
// its Body, wrapped for reading piece by piece (knowledge.StreamWrapper) or not, is read
// (knowledge.StreamRead) in a loop that does not send the request again.
func streamed(call ssa.CallInstruction) bool {
	v, ok := call.(ssa.Value)
	if !ok || v.Referrers() == nil {
		return false
	}
	of := make(map[*ssa.Function][]*loops.Loop)
	inReadLoop := func(b *ssa.BasicBlock) bool {
		fn := b.Parent()
		ls, ok := of[fn]
		if !ok {
			ls = loops.Of(fn)
			of[fn] = ls
		}
		for _, l := range ls {
			if l.Contains(b) && (fn != call.Parent() || !l.Contains(call.Block())) {
				return true
			}
		}
		return false
	}
	for _, resp := range responses(v) {
		for _, rr := range *resp.Referrers() {
			fa, ok := rr.(*ssa.FieldAddr)
			if !ok || flow.FieldVar(fa) == nil || flow.FieldVar(fa).Name() != "Body" || fa.Referrers() == nil {
				continue
			}
			for _, l := range *fa.Referrers() {
				if load, ok := l.(*ssa.UnOp); ok && readInLoop(load, inReadLoop, 0) {
					return true
				}
			}
		}
	}
	return false
}

// responses returns the values that hold the *http.Response the call v returns: its first
// result, and the loads of a variable it is stored in (one a deferred closure captures).
func responses(v ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, r := range *v.Referrers() {
		resp, ok := r.(*ssa.Extract)
		if !ok || resp.Index != 0 || resp.Referrers() == nil {
			continue
		}
		out = append(out, resp)
		for _, rr := range *resp.Referrers() {
			switch rr := rr.(type) {
			case *ssa.Store:
				if a, ok := rr.Addr.(*ssa.Alloc); ok && rr.Val == resp {
					out = append(out, loads(a)...)
					for _, c := range closures(a) {
						out = append(out, loads(c)...)
					}
				}
			case *ssa.MakeClosure:
				for _, c := range captured(rr, resp) {
					if c.Referrers() != nil {
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

// loads returns the loads of the variable at addr.
func loads(addr ssa.Value) []ssa.Value {
	var out []ssa.Value
	if addr.Referrers() == nil {
		return nil
	}
	for _, r := range *addr.Referrers() {
		if load, ok := r.(*ssa.UnOp); ok && load.Referrers() != nil {
			out = append(out, load)
		}
	}
	return out
}

// closures returns the free variables through which closures capture the variable a.
func closures(a *ssa.Alloc) []ssa.Value {
	var out []ssa.Value
	for _, r := range *a.Referrers() {
		if mc, ok := r.(*ssa.MakeClosure); ok {
			out = append(out, captured(mc, a)...)
		}
	}
	return out
}

// captured returns the free variables of the closure mc bound to v.
func captured(mc *ssa.MakeClosure, v ssa.Value) []ssa.Value {
	var out []ssa.Value
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return nil
	}
	for i, b := range mc.Bindings {
		if b == v && i < len(fn.FreeVars) {
			out = append(out, fn.FreeVars[i])
		}
	}
	return out
}

// readInLoop reports whether the reader x, or a reader wrapping it, is read in a block for
// which inLoop holds.
func readInLoop(x ssa.Value, inLoop func(*ssa.BasicBlock) bool, depth int) bool {
	if depth > 3 || x.Referrers() == nil {
		return false
	}
	for _, r := range *x.Referrers() {
		switch r := r.(type) {
		case *ssa.ChangeInterface:
			if readInLoop(r, inLoop, depth+1) {
				return true
			}
		case *ssa.MakeInterface:
			if readInLoop(r, inLoop, depth+1) {
				return true
			}
		case ssa.CallInstruction:
			c := r.Common()
			fn := flow.Callee(c)
			if fn == nil {
				continue
			}
			recv := c.Value
			if !c.IsInvoke() && len(c.Args) > 0 {
				recv = c.Args[0]
			}
			if recv == x && knowledge.StreamRead(fn) && inLoop(r.Block()) {
				return true
			}
			if w, ok := r.(ssa.Value); ok && knowledge.StreamWrapper(fn) && readInLoop(w, inLoop, depth+1) {
				return true
			}
		}
	}
	return false
}
