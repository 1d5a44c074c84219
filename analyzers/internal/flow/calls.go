package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// A Site is a call's receiver (nil for a function call) and its other arguments.
type Site struct {
	Recv ssa.Value
	Args []ssa.Value
}

// NewSite splits the arguments of c, a call of fn, into receiver and the rest.
func NewSite(c *ssa.CallCommon, fn *types.Func) Site {
	s := Site{Args: c.Args}
	if mc := boundClosure(c.Value); mc != nil && !c.IsInvoke() {
		s.Recv = mc.Bindings[0] // f := c.hc.Do; f(req)
		return s
	}
	if c.IsInvoke() {
		s.Recv = c.Value
	} else if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && len(c.Args) > 0 {
		s.Recv, s.Args = c.Args[0], c.Args[1:]
	}
	return s
}

// Arg returns argument i (receiver excluded), or nil.
func (s Site) Arg(i int) ssa.Value {
	if i < len(s.Args) {
		return s.Args[i]
	}
	return nil
}

// Variadic returns the variadic arguments starting at index i, or the slice itself when they
// are not known one by one.
func (s Site) Variadic(i int) []ssa.Value {
	v := s.Arg(i)
	if v == nil {
		return nil
	}
	if elems, ok := Elems(v); ok {
		return elems
	}
	return []ssa.Value{v}
}

// FromTypes is the Synthetic of a function of another package, which has no body.
const FromTypes = "from type information"

// Syntax returns the syntax of fn (a declaration, a function literal, the range statement of
// a yield function), or nil; nil for a function of another package, whatever ssa holds for
// it (see ssapkg).
func Syntax(fn *ssa.Function) ast.Node {
	if fn == nil || fn.Synthetic == FromTypes || fn.Origin() != nil && fn.Origin().Synthetic == FromTypes {
		return nil // also an instantiation of another package's generic function
	}
	return fn.Syntax()
}

// Calls yields the call instructions of fn (calls, go and defer statements), block by block.
func Calls(fn *ssa.Function) iter.Seq[ssa.CallInstruction] { return BlockCalls(fn.Blocks) }

// Detached reports whether fn's body runs apart from its caller: fn, or a function literal
// it is nested in, is started by a go statement (go func() { ... }()) that the function
// around it does not wait for (see Awaited), so that it neither waits for it nor sees how it
// ended.
func Detached(fn *ssa.Function) bool { return DetachedBy(fn, nil) }

// DetachedBy is Detached where, besides a go statement, a call for which starts holds, handed
// the literal (as v), starts it apart from its caller (a runner that calls it in a goroutine
// it does not wait for).
func DetachedBy(fn *ssa.Function, starts func(call ssa.CallInstruction, v ssa.Value) bool) bool {
	started := func(ref ssa.Instruction, v ssa.Value) bool {
		if g, ok := ref.(*ssa.Go); ok && g.Call.Value == v && !Awaited(g) {
			return true
		}
		c, ok := ref.(ssa.CallInstruction)
		return ok && starts != nil && starts(c, v)
	}
	for f := fn; f != nil && f.Parent() != nil; f = f.Parent() {
		for _, ref := range *f.Referrers() {
			v := ssa.Value(f)
			if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == f {
				for _, r := range *mc.Referrers() {
					if started(r, mc) {
						return true
					}
				}
				continue
			}
			if started(ref, v) {
				return true
			}
		}
	}
	return false
}

// WaitGroupWait reports whether call is sync.WaitGroup's Wait.
func WaitGroupWait(call ssa.CallInstruction) bool {
	id := ID(Callee(call.Common()))
	return id.Pkg == "sync" && id.Recv == "WaitGroup" && id.Name == "Wait"
}

// Awaited reports whether the function holding go statement g waits for the goroutine: it
// calls Wait on a sync.WaitGroup, or receives from a channel, that the goroutine is handed
// (captured or passed: go func() { defer wg.Done(); ... }(); wg.Wait(), or go func() { ch
// <- f() }(); <-ch). Such a goroutine's work happens within its starter's call.
func Awaited(g *ssa.Go) bool {
	handed := handedTo(g)
	for _, b := range g.Parent().Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && handed[PlaceOf(x.X)] {
					return true
				}
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.RecvOnly && handed[PlaceOf(st.Chan)] {
						return true
					}
				}
			case *ssa.Call:
				if WaitGroupWait(x) && len(x.Call.Args) > 0 && handed[PlaceOf(x.Call.Args[0])] {
					return true
				}
			}
		}
	}
	return false
}

// StartedFor returns the go statement among the calls that is handed the channel ch (as an
// argument or a captured variable): the goroutine whose answer a receive from ch waits for
// (go func() { ch <- attempt() }(); err := <-ch), or nil.
func StartedFor(ch ssa.Value, calls iter.Seq[ssa.CallInstruction]) *ssa.Go {
	place := PlaceOf(ch)
	for c := range calls {
		if g, ok := c.(*ssa.Go); ok && handedTo(g)[place] {
			return g
		}
	}
	return nil
}

// handedTo returns the places a go statement hands its goroutine: its arguments and the
// variables its closure captures.
func handedTo(g *ssa.Go) map[Place]bool {
	handed := make(map[Place]bool)
	for _, v := range g.Call.Args {
		handed[PlaceOf(v)] = true
	}
	if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
		for _, v := range mc.Bindings {
			handed[PlaceOf(v)] = true
			handed[Place{Root: v, Path: "*"}] = true // a captured variable, loaded where used
		}
	}
	return handed
}

// Received returns the channel that v is received from: <-ch, or the value a select's case
// receives from ch; nil otherwise.
func Received(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			return x.X
		}
	case *ssa.Extract:
		sel, ok := x.Tuple.(*ssa.Select)
		if !ok || x.Index < 2 {
			return nil
		}
		k := x.Index - 2 // (index, recvOk, then one value per receiving case)
		for _, st := range sel.States {
			if st.Dir != types.RecvOnly {
				continue
			}
			if k == 0 {
				return st.Chan
			}
			k--
		}
	}
	return nil
}

// BlockCalls yields the call instructions of the blocks, in order.
func BlockCalls(blocks []*ssa.BasicBlock) iter.Seq[ssa.CallInstruction] {
	return func(yield func(ssa.CallInstruction) bool) {
		for _, b := range blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok && !yield(c) {
					return
				}
			}
		}
	}
}

// CallsAfter yields the calls that may run after instr in its function: those later in its
// block, and those of every block reachable from it (its own block again, in a loop).
func CallsAfter(instr ssa.Instruction) iter.Seq[ssa.CallInstruction] {
	return func(yield func(ssa.CallInstruction) bool) {
		b := instr.Block()
		if b == nil {
			return
		}
		later := false
		for _, x := range b.Instrs {
			if c, ok := x.(ssa.CallInstruction); ok && later && !yield(c) {
				return
			}
			later = later || x == instr
		}
		for x := range Forward(b.Succs, nil) {
			for _, i := range x.Instrs {
				if c, ok := i.(ssa.CallInstruction); ok && !yield(c) {
					return
				}
			}
		}
	}
}

// Forward yields the blocks reachable from starts (starts included), each once, following
// only the edges for which follow holds (every edge when follow is nil). Stopping the range
// stops the search.
func Forward(starts []*ssa.BasicBlock, follow func(from, to *ssa.BasicBlock) bool) iter.Seq[*ssa.BasicBlock] {
	return func(yield func(*ssa.BasicBlock) bool) {
		seen := make(map[*ssa.BasicBlock]bool)
		stack := slices.Clone(starts)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[x] {
				continue
			}
			seen[x] = true
			if !yield(x) {
				return
			}
			for _, s := range x.Succs {
				if follow == nil || follow(x, s) {
					stack = append(stack, s)
				}
			}
		}
	}
}

// CallResult returns the call whose result v is, and which of its results (v extracted
// from a tuple); nil when v is no call's result.
func CallResult(v ssa.Value) (*ssa.Call, int) {
	idx := 0
	if e, ok := v.(*ssa.Extract); ok {
		v, idx = e.Tuple, e.Index
	}
	call, _ := v.(*ssa.Call)
	return call, idx
}

// HeaderSet returns the header name and value that call, a net/http Header.Set or Add, sets,
// when both are constants (a value that is not reads as ""); ok is false for any other call.
func HeaderSet(call ssa.CallInstruction) (name, value string, ok bool) {
	id := ID(Callee(call.Common()))
	args := call.Common().Args
	if id.Pkg != "net/http" || id.Recv != "Header" || id.Name != "Set" && id.Name != "Add" || len(args) < 2 {
		return "", "", false
	}
	name, ok = StringConst(args[1])
	if len(args) > 2 {
		value, _ = StringConst(args[2])
	}
	return name, value, ok
}

// Within reports whether pos is in the source of fn.
func Within(fn *ssa.Function, pos token.Pos) bool {
	syn := Syntax(fn)
	return syn != nil && syn.Pos() <= pos && pos < syn.End()
}

// Generic returns the generic function fn is an instance of (its body, and its facts, are
// that function's), or fn itself; nil for nil.
func Generic(fn *ssa.Function) *ssa.Function {
	if fn != nil && fn.Origin() != nil {
		return fn.Origin()
	}
	return fn
}

// Returns yields the return statements of fn.
func Returns(fn *ssa.Function) iter.Seq[*ssa.Return] {
	return func(yield func(*ssa.Return) bool) {
		for _, b := range fn.Blocks {
			if n := len(b.Instrs); n > 0 {
				if ret, ok := b.Instrs[n-1].(*ssa.Return); ok && !yield(ret) {
					return
				}
			}
		}
	}
}

// Root returns the named function whose body holds fn: fn itself, or the function its
// literal is written in, outermost.
func Root(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// IsError reports whether v is an error a call returned, or another error-like value: of an
// error-like type, and not a result beside a call's error (a generated client's
// (*GetThingOK, error), whose response type has an Error method too, is the answer).
func IsError(v ssa.Value) bool {
	if !typeis.ErrorLike(v.Type()) {
		return false
	}
	ex, ok := v.(*ssa.Extract)
	if !ok {
		return true
	}
	tuple, ok := ex.Tuple.Type().(*types.Tuple)
	return !ok || ex.Index == tuple.Len()-1 || !typeis.ErrorLike(tuple.At(tuple.Len()-1).Type())
}

// ReturnedBy returns, when v is the result of a call of a function of the caller's package
// (a constructor such as newClient()), the values that function returns for it.
func ReturnedBy(v ssa.Value) []ssa.Value {
	call, idx := CallResult(Unwrap(v))
	if call == nil {
		return nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg != call.Parent().Pkg || len(callee.Blocks) == 0 {
		return nil
	}
	var out []ssa.Value
	for ret := range Returns(callee) {
		if idx < len(ret.Results) {
			out = append(out, ret.Results[idx])
		}
	}
	return out
}
