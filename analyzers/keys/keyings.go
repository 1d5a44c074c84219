package keys

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Keyings: the sinks of a function seen from what they key, whatever the key's value, so that a
// check can ask whether a request carries an idempotency key at all.

// A Keying is an idempotency sink together with what the key is set on and the key's value.
type Keying struct {
	Sink
	// On is the root of the value the key is set on: the request whose Header is set, the
	// struct whose field is stored, the map, the request builder or params struct a setter is
	// called on; for metadata.Pairs, AppendToOutgoingContext and options, the call's result.
	On  ssa.Value
	Key ssa.Value
}

// Keyings returns the idempotency sinks written in fn (not in its closures), whatever value
// they send: header, metadata and setter calls, stores into fields named like a key (composite
// literals included), and map entries under such a name.
func (r *Result) Keyings(fn *ssa.Function) []Keying {
	var out []Keying
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				if fa, ok := in.Addr.(*ssa.FieldAddr); ok {
					if name, ok := r.fieldSink(fa); ok {
						out = append(out, Keying{Sink: Sink{Instr: in, What: "field " + name}, On: Root(fa.X), Key: in.Val})
					}
				}
			case *ssa.MapUpdate:
				if k, ok := flow.StringConst(in.Key); ok && r.IsName(k) {
					out = append(out, Keying{Sink: Sink{Instr: in, What: fmt.Sprintf("%s %q", mapKind(in.Map), k)}, On: Root(in.Map), Key: in.Value})
				}
			case ssa.CallInstruction:
				for _, a := range r.sinkArgs(in) {
					on := a.on
					if on != nil {
						on = Root(on)
					}
					out = append(out, Keying{Sink: Sink{Instr: in, What: a.what}, On: on, Key: a.key})
				}
			}
		}
	}
	return out
}

// Root returns the value that v is a part of: through field selections, loads and
// conversions, the request of req.Header, the struct of &s.Field, the variable loaded.
func Root(v ssa.Value) ssa.Value { return flow.PlaceOf(v).Root }

// SendsKey reports whether call calls a function that sends one of its parameters as an
// idempotency key, or that makes a key and sends it (see sinkParamFact and MintsFact): the
// request it builds or is given is keyed inside it.
func (r *Result) SendsKey(call ssa.CallInstruction) bool {
	c := call.Common()
	if callee := c.StaticCallee(); callee != nil && callee.Pkg == r.pkg() && len(callee.Blocks) > 0 {
		if r.mints[callee] != nil || r.fillsInFor(call, callee) {
			return true
		}
		params := callee.Params
		if callee.Signature.Recv() != nil && len(params) > 0 {
			params = params[1:]
		}
		for i := range params {
			if r.paramSink(callee, i) != nil {
				return true
			}
		}
		return false
	}
	fn := flow.Callee(c)
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == r.pass.Pkg {
		return false
	}
	var sp sinkParamFact
	var m MintsFact
	return r.pass.ImportObjectFact(fn, &sp) || r.pass.ImportObjectFact(fn, &m)
}
