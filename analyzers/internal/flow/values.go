// Package flow holds the SSA value walks that idemlint's models share: where a value comes
// from (Backward, through stores to fields and variables with Stores), the calls of a
// function, call sites split into receiver and arguments, constants, and how functions are
// identified (Callee, ID) and named in messages (Name).
package flow

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Callee returns the function or method that call c invokes, when it is known statically or is
// an interface method; for generic functions it returns the generic origin. It returns nil for
// calls of function values, closures and built-ins.
func Callee(c *ssa.CallCommon) *types.Func {
	if c.IsInvoke() {
		return c.Method
	}
	if fn := c.StaticCallee(); fn != nil {
		if obj, ok := fn.Object().(*types.Func); ok {
			return obj.Origin()
		}
	}
	return nil
}

// FuncID names a function or method: package path, receiver type name ("" for functions), name.
type FuncID struct {
	Pkg, Recv, Name string
}

// computing are standard packages whose functions only compute a value from their arguments.
var computing = map[string]bool{
	"strings": true, "strconv": true, "bytes": true, "encoding/hex": true, "encoding/base64": true,
	"encoding/base32": true, "unicode/utf8": true, "path": true, "net/url": true,
}

// Computes reports whether id is a standard function that only computes a value from its
// arguments: string, byte, number, path and URL functions, and fmt's Sprint functions.
func Computes(id FuncID) bool {
	return computing[id.Pkg] || id.Pkg == "fmt" && strings.HasPrefix(id.Name, "Sprint")
}

// ID returns the identity of fn. The receiver is the named type, without pointer or type
// arguments; interface methods have the interface's name.
func ID(fn *types.Func) FuncID {
	if fn == nil || fn.Pkg() == nil {
		return FuncID{}
	}
	id := FuncID{Pkg: fn.Pkg().Path(), Name: fn.Name()}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			id.Recv = n.Origin().Obj().Name()
		}
	}
	return id
}

// Backward visits v and the values it is computed from: operands of its instruction, the edges
// of phis, the values stored into the memory it loads, and the arguments and receiver of the
// calls that produce it. visit returns false to stop descending below a value. The walk visits
// each value once and at most limit values in all.
func Backward(v ssa.Value, limit int, visit func(ssa.Value) bool) {
	backward(v, limit, visit, nil)
}

func backward(v ssa.Value, limit int, visit func(ssa.Value) bool, stores *Stores) {
	seen := make(map[ssa.Value]bool)
	stack := []ssa.Value{v}
	var ops []*ssa.Value
	for len(stack) > 0 && len(seen) < limit {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == nil || seen[x] {
			continue
		}
		seen[x] = true
		if !visit(x) {
			continue
		}
		switch x := x.(type) {
		case *ssa.Alloc:
			// Values stored into the allocation, its fields and its elements.
			stack = append(stack, Stored(x)...)
			continue
		case *ssa.FreeVar:
			// A closure's captured value: what its creators bind.
			stack = append(stack, Bindings(x)...)
			continue
		case *ssa.Function, *ssa.Global, *ssa.Const, *ssa.Parameter, *ssa.Builtin:
			continue
		case *ssa.UnOp:
			if stores != nil {
				stack = append(stack, stores.Loaded(x)...)
			}
			// A field of a local struct: what is stored into that field, not into the others
			// (pg.timeout, where the loop also stores pg.conn = open(...)).
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
				if alloc, ok := fa.X.(*ssa.Alloc); ok {
					// The field and the struct are visited, not walked through: the struct's
					// other fields are not what this load reads.
					for _, y := range []ssa.Value{fa, alloc} {
						if !seen[y] {
							seen[y] = true
							visit(y)
						}
					}
					stack = append(stack, storedIn(alloc, fa.Field)...)
					continue
				}
			}
		}
		if instr, ok := x.(ssa.Instruction); ok {
			ops = instr.Operands(ops[:0])
			for _, op := range ops {
				if op != nil && *op != nil {
					stack = append(stack, *op)
				}
			}
		}
	}
}

// Bindings returns the values bound to a free variable by the closures that create its function.
func Bindings(fv *ssa.FreeVar) []ssa.Value {
	anon := fv.Parent()
	if anon == nil || anon.Parent() == nil {
		return nil
	}
	i := slices.Index(anon.FreeVars, fv)
	var out []ssa.Value
	for _, b := range anon.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == anon && i >= 0 && i < len(mc.Bindings) {
				out = append(out, mc.Bindings[i])
			}
		}
	}
	return out
}

// A Place is where a value is kept, named by structure: a root value (a local variable's
// allocation, a parameter, a call's result) followed by field selections (".3" selects field
// 3) and loads ("*"). Two loads of the same variable or field are the same place, whichever
// instruction reads them.
type Place struct {
	Root ssa.Value
	Path string
}

// PlaceOf returns the place an address or value denotes, looking through conversions.
func PlaceOf(v ssa.Value) Place {
	var steps []string
	for range 32 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			steps, v = append(steps, "."+strconv.Itoa(x.Field)), x.X
			continue
		case *ssa.Field:
			steps, v = append(steps, "."+strconv.Itoa(x.Field)), x.X
			continue
		case *ssa.UnOp:
			if x.Op == token.MUL {
				steps, v = append(steps, "*"), x.X
				continue
			}
		case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.ChangeInterface:
			v = Unwrap(v)
			continue
		}
		break
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteString(steps[i])
	}
	return Place{Root: v, Path: b.String()}
}

// Stored returns the values stored into alloc directly or into its fields and elements.
func Stored(alloc ssa.Value) []ssa.Value { return storedIn(alloc, -1) }

// storedIn returns the values stored into alloc directly, and into its field (every field and
// element when field < 0).
func storedIn(alloc ssa.Value, field int) []ssa.Value {
	var vals []ssa.Value
	refs := alloc.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == alloc {
				vals = append(vals, r.Val)
			}
		case *ssa.FieldAddr:
			if field < 0 || r.Field == field {
				vals = append(vals, Stored(r)...)
			}
		case *ssa.IndexAddr:
			if field < 0 {
				vals = append(vals, Stored(r)...)
			}
		}
	}
	return vals
}

// Elems returns the values of the variadic slice v when it is a slice of a local array built
// by the compiler (f(a, b, c)), by index; ok is false otherwise.
func Elems(v ssa.Value) (elems []ssa.Value, ok bool) {
	sl, isSlice := v.(*ssa.Slice)
	if !isSlice {
		if c, isConst := v.(*ssa.Const); isConst && c.IsNil() {
			return nil, true // f() with no variadic arguments
		}
		return nil, false
	}
	alloc, isAlloc := sl.X.(*ssa.Alloc)
	if !isAlloc {
		return nil, false
	}
	arr, isArr := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !isArr {
		return nil, false
	}
	elems = make([]ssa.Value, arr.Len())
	for _, r := range *alloc.Referrers() {
		ia, isIA := r.(*ssa.IndexAddr)
		if !isIA {
			continue
		}
		i, isConst := IntConst(ia.Index)
		if !isConst || i < 0 || i >= int64(len(elems)) {
			continue
		}
		for _, rr := range *ia.Referrers() {
			if st, isStore := rr.(*ssa.Store); isStore && st.Addr == ia {
				elems[i] = st.Val
			}
		}
	}
	return elems, true
}

// IntConst returns the value of an integer constant, looking through conversions.
func IntConst(v ssa.Value) (int64, bool) {
	v = Unwrap(v)
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// FloatConst returns the value of a numeric constant, looking through conversions.
func FloatConst(v ssa.Value) (float64, bool) {
	v = Unwrap(v)
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	switch c.Value.Kind() {
	case constant.Int, constant.Float:
		f, _ := constant.Float64Val(constant.ToFloat(c.Value))
		return f, true
	}
	return 0, false
}

// BoolConst returns the value of a boolean constant, looking through conversions.
func BoolConst(v ssa.Value) (bool, bool) {
	c, ok := Unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(c.Value), true
}

// StringConst returns the value of a string constant, looking through conversions.
func StringConst(v ssa.Value) (string, bool) {
	v = Unwrap(v)
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// Unwrap looks through conversions, interface boxing and type changes.
func Unwrap(v ssa.Value) ssa.Value {
	for range 16 {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		default:
			return v
		}
	}
	return v
}

// SameValue reports whether v is target, a conversion of it, or a load of a local variable
// that only target is stored into (how SSA represents a captured variable).
func SameValue(v, target ssa.Value) bool {
	v = Unwrap(v)
	if v == target {
		return true
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	return IsBoxOf(load.X, target)
}

// IsBoxOf reports whether addr is a local variable that only target is stored into.
func IsBoxOf(addr, target ssa.Value) bool {
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	stored := Stored(alloc)
	if len(stored) == 0 {
		return false
	}
	for _, s := range stored {
		if Unwrap(s) != target {
			return false
		}
	}
	return true
}

// A Site is a call's receiver (nil for a function call) and its other arguments.
type Site struct {
	Recv ssa.Value
	Args []ssa.Value
}

// NewSite splits the arguments of c, a call of fn, into receiver and the rest.
func NewSite(c *ssa.CallCommon, fn *types.Func) Site {
	s := Site{Args: c.Args}
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

// FieldVar returns the struct field that fa addresses, or nil.
func FieldVar(fa *ssa.FieldAddr) *types.Var {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field).Origin()
}

// Stores indexes the values that a package's functions store into struct fields (by field,
// whatever the struct value) and package variables: a flow-insensitive view of what a field
// or variable may hold when it is loaded elsewhere.
type Stores struct {
	Fields  map[*types.Var][]ssa.Value
	Globals map[*ssa.Global][]ssa.Value
}

// IndexStores builds the Stores of funcs.
func IndexStores(funcs []*ssa.Function) *Stores {
	s := &Stores{Fields: make(map[*types.Var][]ssa.Value), Globals: make(map[*ssa.Global][]ssa.Value)}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				switch addr := st.Addr.(type) {
				case *ssa.FieldAddr:
					if fv := FieldVar(addr); fv != nil {
						s.Fields[fv] = append(s.Fields[fv], st.Val)
					}
				case *ssa.Global:
					s.Globals[addr] = append(s.Globals[addr], st.Val)
				}
			}
		}
	}
	return s
}

// Backward is flow.Backward that also goes from a load of a struct field or package variable
// to the values the package stores into it; on a nil *Stores it is flow.Backward.
func (s *Stores) Backward(v ssa.Value, limit int, visit func(ssa.Value) bool) {
	backward(v, limit, visit, s)
}

// Loaded returns the values the package stores into the struct field or package variable
// that v loads; nil when v is not such a load.
func (s *Stores) Loaded(v ssa.Value) []ssa.Value {
	if s == nil {
		return nil
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	switch addr := load.X.(type) {
	case *ssa.FieldAddr:
		if fv := FieldVar(addr); fv != nil {
			return s.Fields[fv]
		}
	case *ssa.Global:
		return s.Globals[addr]
	}
	return nil
}

// Name is how a message names a function, seen from package from: "fetch" for a function of
// from, "uuid.NewString" for one of another package, "Client.Do" for a method.
func Name(fn *types.Func, from *types.Package) string {
	if fn == nil {
		return ""
	}
	id := ID(fn)
	switch {
	case id.Recv != "":
		return id.Recv + "." + id.Name
	case fn.Pkg() != nil && fn.Pkg() != from:
		return fn.Pkg().Name() + "." + id.Name
	}
	return id.Name
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
func Detached(fn *ssa.Function) bool {
	for f := fn; f != nil && f.Parent() != nil; f = f.Parent() {
		for _, ref := range *f.Referrers() {
			v := ssa.Value(f)
			if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == f {
				v = mc
				for _, r := range *mc.Referrers() {
					if g, ok := r.(*ssa.Go); ok && g.Call.Value == v && !Awaited(g) {
						return true
					}
				}
				continue
			}
			if g, ok := ref.(*ssa.Go); ok && g.Call.Value == v && !Awaited(g) {
				return true
			}
		}
	}
	return false
}

// Awaited reports whether the function holding go statement g waits for the goroutine: it
// calls Wait on a sync.WaitGroup, or receives from a channel, that the goroutine is handed
// (captured or passed: go func() { defer wg.Done(); ... }(); wg.Wait(), or go func() { ch
// <- f() }(); <-ch). Such a goroutine's work happens within its starter's call.
func Awaited(g *ssa.Go) bool {
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
				if id := ID(Callee(x.Common())); id.Pkg == "sync" && id.Recv == "WaitGroup" && id.Name == "Wait" && len(x.Call.Args) > 0 && handed[PlaceOf(x.Call.Args[0])] {
					return true
				}
			}
		}
	}
	return false
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

// ContextInScope returns the named context.Context parameter of fn or of the functions it is
// a closure of, the innermost first; nil when none is in scope.
func ContextInScope(fn *ssa.Function) *ssa.Parameter {
	for ; fn != nil; fn = fn.Parent() {
		if p := ContextParam(fn); p != nil && p.Name() != "_" && p.Name() != "" {
			return p
		}
	}
	return nil
}

// ContextParam returns the first context.Context parameter of fn, or nil.
func ContextParam(fn *ssa.Function) *ssa.Parameter {
	for _, p := range fn.Params {
		if typeis.Context(p.Type()) {
			return p
		}
	}
	return nil
}

// IsNil reports whether v is the constant nil.
func IsNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// IsZero reports whether v is, looking through conversions, a zero constant: 0, 0.0, nil, "".
func IsZero(v ssa.Value) bool {
	c, ok := Unwrap(v).(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(c.Value) == 0
	case constant.String:
		return constant.StringVal(c.Value) == ""
	}
	return false
}

// ParseFunc parses a function named in a flag: "pkg/path.Func" or "pkg/path.Type.Method" (the
// receiver may be written (*Type)).
func ParseFunc(s string) (FuncID, error) {
	slash := strings.LastIndex(s, "/")
	dot := strings.Index(s[slash+1:], ".")
	if dot < 0 {
		return FuncID{}, fmt.Errorf("%q: want pkg/path.Func or pkg/path.Type.Method", s)
	}
	id := FuncID{Pkg: s[:slash+1+dot], Name: s[slash+1+dot+1:]}
	if recv, name, ok := strings.Cut(id.Name, "."); ok {
		id.Recv, id.Name = strings.Trim(recv, "(*)"), name
	}
	return id, nil
}
