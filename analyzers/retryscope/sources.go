package retryscope

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// Sources by structure: besides the APIs the knowledge table lists, a method takes the next
// item of a source when it takes one out of its receiver: it shortens a slice the receiver
// holds (p.idle = p.idle[:n-1], a pool's pop), receives from a channel the receiver holds, or
// reads through a reader the receiver holds (r.rd.ReadByte(), a protocol reader's frames), or
// calls such a method of its own receiver. A function takes from its first parameter the same
// way (readFill(r, buf) reading r until buf is full, as io.ReadFull does). A loop that calls one
// works through what the source holds, trying the next item after a bad one; it does not retry
// one operation. Functions of other packages are known by consumesFact.

// consumesFact marks a function or method that takes the next item out of its parameter
// Param (its receiver, for a method: 0).
type consumesFact struct{ Param int }

func (*consumesFact) AFact() {}
func (f *consumesFact) String() string {
	if f.Param == 0 {
		return "takes the next item of its receiver or first parameter"
	}
	return fmt.Sprintf("takes the next item of its parameter %d", f.Param)
}

// consumes reports whether fn takes the next item of a source it is called on: its receiver, or
// its first parameter.
func (st *state) consumes(fn *types.Func) bool { return st.sourceParam(fn) == 0 }

// sourceParam returns the index, among fn's parameters (its receiver first), of the source fn
// takes the next item of: by the knowledge tables, by its fact, or by its code; -1 when none.
func (st *state) sourceParam(fn *types.Func) int {
	if fn == nil || fn.Pkg() == nil {
		return -1
	}
	if knowledge.Consumes(fn) {
		return 0
	}
	if i := knowledge.SourceArg(fn); i >= 0 {
		return i
	}
	if fn.Pkg() != st.pass.Pkg {
		if v, ok := st.consumed[fn]; ok {
			return v
		}
		v := -1
		if f := new(consumesFact); st.pass.ImportObjectFact(fn.Origin(), f) {
			v = f.Param
		}
		st.consumed[fn] = v
		return v
	}
	f := st.funcOf(fn.Origin())
	if f == nil {
		return -1
	}
	for i := range f.Params {
		if st.takesFrom(f, i, 0) {
			return i
		}
	}
	if takesFromParam(f) {
		return 0
	}
	return -1
}

// takesFromParam reports whether fn takes an item out of a collection it is handed: it stores
// back, into the map entry or the slice its parameter points to, that collection without its
// first items (cands := m[k]; m[k] = cands[1:]; *q = (*q)[1:]).
func takesFromParam(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	isParam := func(v ssa.Value) bool { _, ok := v.(*ssa.Parameter); return ok }
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.MapUpdate:
				sl, ok := flow.Unwrap(in.Value).(*ssa.Slice)
				if !ok || !isParam(in.Map) {
					continue
				}
				if lk, ok := flow.Unwrap(sl.X).(*ssa.Lookup); ok && lk.X == in.Map && lk.Index == in.Key {
					return true
				}
			case *ssa.Store:
				sl, ok := flow.Unwrap(in.Val).(*ssa.Slice)
				if !ok || !isParam(in.Addr) {
					continue
				}
				if load, ok := flow.Unwrap(sl.X).(*ssa.UnOp); ok && load.Op == token.MUL && load.X == in.Addr {
					return true
				}
			}
		}
	}
	return false
}

// takesFrom reports whether fn takes an item out of its parameter idx (its receiver, for a
// method: 0).
func (st *state) takesFrom(fn *ssa.Function, idx int, depth int) bool {
	if fn == nil || idx >= len(fn.Params) || len(fn.Blocks) == 0 || depth > 3 {
		return false
	}
	key := takeKey{fn, idx}
	if v, ok := st.takes[key]; ok {
		return v
	}
	st.takes[key] = false // a cycle of methods proves nothing
	recv := fn.Params[idx]
	ofRecv := func(v ssa.Value) bool { // a field of the receiver, or the receiver
		v = flow.Unwrap(v)
		if v == recv {
			return true
		}
		pl := flow.PlaceOf(v)
		return pl.Root == recv && pl.Path != ""
	}
	found, writes := false, false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				// s.items = s.items[i:] or [:n]: the same field, shortened; l.front =
				// l.front.next: the same field, moved on to what its value points to.
				if ofRecv(in.Addr) {
					held := flow.PlaceOf(in.Addr).Path + "*"
					if sl, ok := in.Val.(*ssa.Slice); ok && flow.PlaceOf(sl.X) == (flow.Place{Root: recv, Path: held}) {
						found = true
					}
					if pl := flow.PlaceOf(in.Val); pl.Root == recv && strings.HasPrefix(pl.Path, held+".") {
						found = true
					}
				}
			case *ssa.UnOp:
				// v := <-s.items: an item, not a signal (<-s.stop, a chan struct{}).
				if in.Op == token.ARROW && ofRecv(in.X) && !signalChan(in.X.Type()) {
					found = true
				}
			case ssa.CallInstruction:
				callee := flow.Callee(in.Common())
				if callee == nil {
					continue
				}
				args := in.Common().Args
				if i := knowledge.SourceArg(callee); i >= 0 && i < len(args) && ofRecv(args[i]) {
					found = true // io.ReadFull(r, buf), io.CopyN(buf, r, n)
					continue
				}
				method := callee.Signature().Recv() != nil
				if f := in.Common().StaticCallee(); f != nil && callee.Pkg() == st.pass.Pkg {
					for j, a := range args {
						if (j > 0 || !method) && flow.Unwrap(a) == recv && st.takesFrom(f, j, depth+1) {
							found = true // handed on to a function that takes from it (p.parseOne(r, ...))
						}
					}
				}
				if !method {
					continue
				}
				r := flow.NewSite(in.Common(), callee).Recv
				if r == nil || !ofRecv(r) {
					continue
				}
				switch {
				case knowledge.Writes(callee):
					// A method that also writes through what it holds sends a request and reads
					// the answer: a round trip, not a source.
					writes = true
				case knowledge.Consumes(callee) || callee.Pkg() != st.pass.Pkg && st.consumes(callee):
					found = true
				case callee.Pkg() == st.pass.Pkg && flow.Unwrap(r) == recv:
					if f := st.funcOf(callee.Origin()); f != nil && st.writesThrough(f, depth+1) {
						writes = true
					} else if st.takesFrom(f, 0, depth+1) {
						found = true
					}
				}

			}
		}
	}
	found = found && !writes
	st.takes[key] = found
	return found
}

type takeKey struct {
	fn  *ssa.Function
	idx int
}

// writesThrough reports whether the method fn writes through its receiver, directly or
// through the methods of its receiver it calls.
func (st *state) writesThrough(fn *ssa.Function, depth int) bool {
	if fn == nil || len(fn.Params) == 0 || depth > 3 {
		return false
	}
	recv := fn.Params[0]
	for call := range flow.Calls(fn) {
		callee := flow.Callee(call.Common())
		if callee == nil || callee.Signature().Recv() == nil {
			continue
		}
		r := flow.NewSite(call.Common(), callee).Recv
		if r == nil || flow.PlaceOf(flow.Unwrap(r)).Root != recv {
			continue
		}
		if knowledge.Writes(callee) {
			return true
		}
		if callee.Pkg() == st.pass.Pkg && flow.Unwrap(r) == recv && st.writesThrough(st.funcOf(callee.Origin()), depth+1) {
			return true
		}
	}
	return false
}

// signalChan reports whether t is a channel of empty structs: a signal, not items.
func signalChan(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// exportConsumers exports a consumesFact for every exported method of the package that takes
// the next item out of its receiver.
func (st *state) exportConsumers() {
	for _, fn := range st.funcs {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Exported() {
			if i := st.sourceParam(obj); i >= 0 {
				st.pass.ExportObjectFact(obj, &consumesFact{Param: i})
			}
		}
	}
}
