package keys

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Reach returns the sinks that the value seed (in its function) reaches.
func (r *Result) Reach(seed ssa.Value) []Sink { return r.walk(seed).sinks }

// maxTainted bounds one walk; a key's flow is short.
const maxTainted = 2000

// walk follows seed forward and returns what it found: the sinks reached, whether the value is
// returned by its function, and where it is kept.
func (r *Result) walk(seed ssa.Value) *walk { return r.walkFrom(seed, nil) }

// walkFrom is walk for the value of a generation: a generator that fills a buffer (gen) does
// not pass the buffer's value on to its own results, a count and an error.
func (r *Result) walkFrom(seed ssa.Value, gen ssa.CallInstruction) *walk {
	w := &walk{r: r, gen: gen, tainted: make(map[ssa.Value]bool), fields: make(map[fieldKey]bool), bases: make(map[ssa.Value]bool), seen: make(map[ssa.Instruction]bool)}
	w.taint(seed)
	for len(w.queue) > 0 && len(w.tainted) < maxTainted {
		v := w.queue[len(w.queue)-1]
		w.queue = w.queue[:len(w.queue)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, instr := range *refs {
			w.step(v, instr)
		}
	}
	return w
}

type fieldKey struct {
	base  ssa.Value
	field int
}

type walk struct {
	r        *Result
	gen      ssa.CallInstruction // the generator call that filled the seed, if any
	tainted  map[ssa.Value]bool
	fields   map[fieldKey]bool  // struct fields holding the value, by base pointer
	bases    map[ssa.Value]bool // the bases of those fields
	queue    []ssa.Value
	sinks    []Sink
	seen     map[ssa.Instruction]bool // sinks found
	returned bool
	kept     map[place]bool // where the value is kept (see Flow.FillsIn)
}

func (w *walk) taint(v ssa.Value) {
	if v == nil || w.tainted[v] {
		return
	}
	if _, isConst := v.(*ssa.Const); isConst {
		return
	}
	if typeis.Error(v.Type()) || typeis.Duration(v.Type()) {
		// An error that mentions the key does not carry it anywhere, and a duration (an
		// elapsed time measured from time.Now) is not a unique value.
		return
	}
	w.tainted[v] = true
	w.queue = append(w.queue, v)
}

func (w *walk) sink(instr ssa.Instruction, what string) {
	if !w.seen[instr] {
		w.seen[instr] = true
		w.sinks = append(w.sinks, Sink{Instr: instr, What: what})
	}
}

// step propagates the taint of v through instr, one of its referrers.
func (w *walk) step(v ssa.Value, instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.Store:
		if in.Val != v {
			// A load of a tainted address: handled by UnOp below.
			return
		}
		w.keep(addrPlace(in.Addr))
		if fa, ok := in.Addr.(*ssa.FieldAddr); ok {
			if name, ok := w.r.fieldSink(fa); ok {
				w.sink(in, "field "+name)
			}
			w.fields[fieldKey{fa.X, fa.Field}] = true
			w.bases[fa.X] = true
			w.taint(fa)
			// Other addresses of the same field of the same struct.
			if refs := fa.X.Referrers(); refs != nil {
				for _, ref := range *refs {
					if other, ok := ref.(*ssa.FieldAddr); ok && other != fa && flow.SameAddr(other, fa) {
						w.taint(other)
					}
				}
			}
			return
		}
		switch addr := in.Addr.(type) {
		case *ssa.Global:
			return // escapes; not followed
		case *ssa.IndexAddr:
			w.taint(addr)
			w.taint(addr.X) // the array or slice now holds it
		default:
			w.taint(addr)
		}
	case *ssa.MapUpdate:
		if in.Value == v {
			if p, ok := entryPlace(in.Map, in.Key); ok {
				w.keep(p)
			}
			if k, ok := flow.StringConst(in.Key); ok && w.r.IsName(k) {
				w.sink(in, fmt.Sprintf("%s %q", mapKind(in.Map), k))
			}
			w.taint(in.Map)
		}
	case ssa.CallInstruction:
		w.call(v, in)
	case *ssa.MakeClosure:
		anon, ok := in.Fn.(*ssa.Function)
		if !ok {
			return
		}
		for i, b := range in.Bindings {
			if b == v && i < len(anon.FreeVars) {
				w.taint(anon.FreeVars[i])
			}
		}
	case *ssa.Return:
		w.returned = true
	case *ssa.FieldAddr:
		// The address of a field of a tainted struct pointer: tainted when that field holds the
		// value, or when the whole struct came from a tainted value (not a field store).
		if w.fields[fieldKey{in.X, in.Field}] || !w.hasFields(in.X) {
			w.taint(in)
		}
	case *ssa.Field:
		w.taint(in)
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			return
		}
		w.taint(in)
	case *ssa.Phi:
		w.keepPhi(in)
		w.taint(in)
	case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.ChangeInterface,
		*ssa.TypeAssert, *ssa.Extract, *ssa.Slice, *ssa.BinOp, *ssa.Index, *ssa.IndexAddr,
		*ssa.Lookup, *ssa.SliceToArrayPointer, *ssa.MultiConvert:
		w.taint(instr.(ssa.Value))
	}
}

// hasFields reports whether some field of base was tainted by a store (so that the other
// fields are not).
func (w *walk) hasFields(base ssa.Value) bool {
	return w.bases[base]
}

func mapKind(m ssa.Value) string {
	if n, ok := types.Unalias(m.Type()).(*types.Named); ok && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
		case "net/http.Header":
			return "header"
		case "google.golang.org/grpc/metadata.MD":
			return "gRPC metadata"
		}
	}
	return "map key"
}

// fieldSink returns the name of the field at fa when it names an idempotency key, by its
// name or its json/form tag.
func (r *Result) fieldSink(fa *ssa.FieldAddr) (string, bool) {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return "", false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() || !r.keyField(st, fa.Field) {
		return "", false
	}
	return st.Field(fa.Field).Name(), true
}

// keyField reports whether field i of st names an idempotency key, by its name or its
// json/form tag.
func (r *Result) keyField(st *types.Struct, i int) bool {
	if r.IsName(st.Field(i).Name()) {
		return true
	}
	return slices.ContainsFunc(jsonName(st.Tag(i)), r.IsName)
}

// KeyField returns the field of the struct type t (or the struct t points to) that names an
// idempotency key, or "": a value of such a type that a caller fills in carries its key
// (billing.ChargeInput{IdempotencyKey: ...} handed to the function that sends it).
func (r *Result) KeyField(t types.Type) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	for i := range st.NumFields() {
		if r.keyField(st, i) {
			return st.Field(i).Name()
		}
	}
	return ""
}

// call handles a tainted value passed to a call: a sink, a function of this package that sends
// the parameter on, or a transformation whose result carries the value.
func (w *walk) call(v ssa.Value, call ssa.CallInstruction) {
	if call == w.gen {
		return
	}
	c := call.Common()
	if what, ok := w.r.sinkCall(call, func(x ssa.Value) bool { return w.tainted[x] || w.taintedElems(x) }); ok {
		w.sink(call, what)
		w.keepSink(call)
		return
	}
	if dst := writtenInto(c, v); dst != nil {
		w.taint(dst)
	}
	fn := flow.Callee(c)
	// Arguments index among the callee's parameters (receiver excluded).
	args := c.Args
	recvTainted := c.IsInvoke() && c.Value == v
	if fn != nil && !c.IsInvoke() {
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && len(args) > 0 {
			recvTainted = args[0] == v
			args = args[1:]
		}
	}
	if callee := c.StaticCallee(); callee != nil && len(callee.Blocks) > 0 && callee.Pkg == w.r.pkg() {
		passesOn := false
		for i, a := range args {
			if a == v {
				if s := w.r.paramSink(callee, i); s != nil {
					w.sink(call, via(s.What, callee.Name()))
				}
				if w.r.paramReturned(callee, i) {
					passesOn = true
				}
			}
		}
		if passesOn || recvTainted {
			if val := call.Value(); val != nil {
				w.taint(val)
			}
		}
		return
	}
	if fn != nil && fn.Pkg() != nil && fn.Pkg() != w.r.pass.Pkg {
		var f sinkParamFact
		if w.r.pass.ImportObjectFact(fn, &f) {
			for _, i := range f.Params {
				if i < len(args) && args[i] == v {
					w.sink(call, via(f.What, fn.Name()))
				}
			}
		}
	}
	// A library call (formatting, encoding, hashing, String()): its result carries the value.
	if val := call.Value(); val != nil {
		w.taint(val)
	}
}

// via names a sink reached through the function name: "header "Idempotency-Key" via post",
// once when a method passes it to a function of the same name (an SDK's Client.CreateRecord
// calling CreateRecord).
func via(what, name string) string {
	if strings.HasSuffix(what, " via "+name) {
		return what
	}
	return what + " via " + name
}

// writtenInto returns the buffer that a call writes v into (copy(dst, v), hex.Encode(dst, v)):
// the destination, or the slice or array it is a part of (res[9:]); nil for other calls.
func writtenInto(c *ssa.CallCommon, v ssa.Value) ssa.Value {
	args := c.Args
	if b, ok := c.Value.(*ssa.Builtin); ok {
		if b.Name() != "copy" {
			return nil
		}
	} else {
		fn := flow.Callee(c)
		if fn == nil || !knowledge.BufferEncoder(flow.ID(fn)) {
			return nil
		}
		args = flow.NewSite(c, fn).Args
	}
	if len(args) < 2 || !slices.Contains(args[1:], v) {
		return nil
	}
	dst := args[0]
	if sl, ok := dst.(*ssa.Slice); ok {
		dst = sl.X
	}
	return dst
}

// taintedElems reports whether x is a variadic slice with a tainted element.
func (w *walk) taintedElems(x ssa.Value) bool {
	elems, ok := flow.Elems(x)
	if !ok {
		return false
	}
	for _, e := range elems {
		if e != nil && w.tainted[e] {
			return true
		}
	}
	return false
}

func (r *Result) pkg() *ssa.Package { return r.ssaPkg }

// sinkCall reports whether call sends a tainted value as an idempotency key.
func (r *Result) sinkCall(call ssa.CallInstruction, tainted func(ssa.Value) bool) (string, bool) {
	for _, a := range r.sinkArgs(call) {
		if a.key != nil && tainted(a.key) {
			return a.what, true
		}
	}
	return "", false
}

// A sinkArg is one value a call sends as an idempotency key: what the sink is, the value the
// key is set on (a header map, metadata, a request builder or params struct; for
// metadata.Pairs and AppendToOutgoingContext, and options, the call's result), and the key.
type sinkArg struct {
	what    string
	on, key ssa.Value
}

// sinkArgs returns the values call sends as idempotency keys: Header.Set(name, value),
// MD.Set(name, values...), resty's SetHeader and look-alikes, metadata.Pairs and
// AppendToOutgoingContext, and setters and options (SetIdempotencyKey(v), WithIdempotencyKey(v)).
func (r *Result) sinkArgs(call ssa.CallInstruction) []sinkArg {
	c := call.Common()
	fn := flow.Callee(c)
	if fn == nil {
		return nil
	}
	id := flow.ID(fn)
	site := flow.NewSite(c, fn)
	args := site.Args
	on := site.Recv
	if on == nil {
		on = call.Value()
	}
	switch {
	case id.Pkg == "google.golang.org/grpc/metadata" && id.Recv == "" && (id.Name == "Pairs" || id.Name == "AppendToOutgoingContext"):
		if len(args) == 0 {
			return nil
		}
		elems, ok := flow.Elems(args[len(args)-1])
		if !ok {
			return nil
		}
		var out []sinkArg
		for i := 0; i+1 < len(elems); i += 2 {
			if k, ok := flow.StringConst(elems[i]); ok && r.IsName(k) && elems[i+1] != nil {
				out = append(out, sinkArg{what: fmt.Sprintf("gRPC metadata %q", k), on: call.Value(), key: elems[i+1]})
			}
		}
		return out
	case namedSetters[id.Name] != "" && len(args) >= 2:
		// Header.Set(name, value), MD.Set(name, values...), resty's SetHeader, a request's
		// SetParam(name, value), and look-alikes.
		k, ok := flow.StringConst(args[0])
		if !ok || !r.IsName(k) {
			return nil
		}
		if site.Recv != nil && readRequest(site.Recv) {
			return nil // a read is not deduplicated: it has no effect to repeat
		}
		kind := namedSetters[id.Name]
		if id.Pkg == "google.golang.org/grpc/metadata" {
			kind = "gRPC metadata"
		}
		return []sinkArg{{what: fmt.Sprintf("%s %q", kind, k), on: on, key: args[1]}}
	}
	// Setters and options: SetIdempotencyKey(v), WithIdempotencyKey(v), IdempotencyKey(v).
	name := strings.TrimPrefix(strings.TrimPrefix(id.Name, "Set"), "With")
	if !r.IsName(name) {
		return nil
	}
	var out []sinkArg
	for _, a := range args {
		out = append(out, sinkArg{what: id.Name, on: on, key: a})
	}
	return out
}

// namedSetters are the methods that send a value under a name given as their first argument,
// with the kind of place they set: headers, and query parameters (cloud SDKs send client tokens
// as ?clientToken=).
var namedSetters = map[string]string{
	"Set": "header", "Add": "header", "SetHeader": "header", "AddHeader": "header", "Append": "header",
	"SetParam": "query parameter", "AddParam": "query parameter", "SetQueryParam": "query parameter",
	"AddQueryParam": "query parameter", "WithQueryParam": "query parameter", "WithQueryParamFilter": "query parameter",
}

// readMethods are the HTTP methods that read: a key sent with one deduplicates nothing.
var readMethods = map[string]bool{"GET": true, "HEAD": true, "OPTIONS": true}

// readRequest reports whether the request that recv is or belongs to (its Header) is built
// with a read method: net/http's NewRequest or NewRequestWithContext with a constant method,
// or a builder given a constant one by WithMethod or SetMethod (bce-sdk-go's
// NewRequestBuilder(c).WithMethod(http.GET)...), on the way to recv or on recv itself.
func readRequest(recv ssa.Value) bool {
	read := func(call ssa.CallInstruction) bool {
		fn := flow.Callee(call.Common())
		id := flow.ID(fn)
		if fn == nil {
			return false
		}
		site := flow.NewSite(call.Common(), fn)
		var m ssa.Value
		if maker, ok := knowledge.RequestMakers[id]; ok {
			m = site.Arg(maker.Method)
		} else if id.Recv != "" && (id.Name == "WithMethod" || id.Name == "SetMethod") && len(site.Args) == 1 {
			m = site.Arg(0)
		}
		s, ok := flow.StringConst(m)
		return ok && readMethods[strings.ToUpper(s)]
	}
	found := false
	flow.Backward(recv, 64, func(x ssa.Value) bool {
		if call, ok := x.(*ssa.Call); ok && read(call) {
			found = true
		}
		return !found
	})
	if refs := flow.Unwrap(recv).Referrers(); refs != nil && !found {
		for _, r := range *refs {
			call, ok := r.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if fn := flow.Callee(call.Common()); fn != nil && flow.NewSite(call.Common(), fn).Recv == recv && read(call) {
				found = true
			}
		}
	}
	return found
}

// A paramFlow says where one parameter of a function goes.
type paramFlow struct {
	sink     *Sink // the first idempotency sink it reaches, if any
	returned bool  // it flows to the function's results
}

// flows returns, for each parameter of fn (receiver excluded), where it goes; computed once
// per function. Parameters that cannot carry a key (contexts, functions, booleans...) are not
// followed. A function being computed (recursion) has no flows.
func (r *Result) flows(fn *ssa.Function) []paramFlow {
	if f, ok := r.paramFlows[fn]; ok {
		return f
	}
	if r.inProgress[fn] {
		return nil
	}
	r.inProgress[fn] = true
	defer delete(r.inProgress, fn)
	params := fn.Params
	if fn.Signature.Recv() != nil && len(params) > 0 {
		params = params[1:]
	}
	out := make([]paramFlow, len(params))
	for i, p := range params {
		if !mayCarryKey(p.Type()) {
			continue
		}
		w := r.walk(p)
		if len(w.sinks) > 0 {
			out[i].sink = &w.sinks[0]
		}
		out[i].returned = w.returned
	}
	r.paramFlows[fn] = out
	return out
}

// paramSink returns the sink that parameter i of fn (receiver excluded) reaches, if any.
func (r *Result) paramSink(fn *ssa.Function, i int) *Sink {
	if f := r.flows(fn); i < len(f) {
		return f[i].sink
	}
	return nil
}

// paramReturned reports whether parameter i of fn flows to its results.
func (r *Result) paramReturned(fn *ssa.Function, i int) bool {
	f := r.flows(fn)
	return i < len(f) && f[i].returned
}

// mayCarryKey reports whether a value of type t can hold an idempotency key: strings, byte
// slices and arrays, integers, structs, pointers, maps, slices and the empty interface; not
// contexts, errors and other interfaces with methods, functions, channels, booleans or floats.
func mayCarryKey(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsString|types.IsInteger) != 0
	case *types.Interface:
		return u.Empty()
	case *types.Signature, *types.Chan:
		return false
	}
	return true
}

// infer computes the package's facts: generator functions, parameters sent to sinks, and
// functions that mint a key on every call.
func (r *Result) infer(funcs []*ssa.Function) {
	// Generators first (a generator may wrap another), then sinks and mints.
	for range 4 {
		changed := false
		for _, fn := range funcs {
			if r.localGen[fn] != "" || fn.Object() == nil {
				continue
			}
			for _, g := range r.generations(fn) {
				if f := r.Follow(g); f.Returned && !f.FillsIn(anywhere) {
					r.localGen[fn] = g.Name
					changed = true
					break
				}
			}
		}
		if !changed {
			break
		}
	}
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj.Pkg() != r.pass.Pkg {
			continue
		}
		if from := r.localGen[fn]; from != "" {
			r.pass.ExportObjectFact(obj, &generatorFact{From: from})
		}
		params := fn.Params
		if fn.Signature.Recv() != nil && len(params) > 0 {
			params = params[1:]
		}
		var sinkParams []int
		var what string
		for i := range params {
			if s := r.paramSink(fn, i); s != nil {
				sinkParams = append(sinkParams, i)
				what = s.What
			}
		}
		if len(sinkParams) > 0 {
			r.pass.ExportObjectFact(obj, &sinkParamFact{Params: sinkParams, What: what})
		}
		if fs := r.fillIns(fn); len(fs) > 0 {
			r.fills[fn] = fs
		}
		for _, g := range r.generations(fn) {
			if f := r.Follow(g); len(f.Sinks) > 0 && !f.FillsIn(anywhere) {
				sinks := f.Sinks
				p := r.pass.Fset.Position(g.Call.Pos())
				f := &MintsFact{Generator: fmt.Sprintf("%s at %s:%d", g.Name, filepath.Base(p.Filename), p.Line), What: sinks[0].What}
				r.mints[fn] = f
				r.pass.ExportObjectFact(obj, f)
				break
			}
		}
	}
}

// generations returns the generator calls in fn and its closures.
func (r *Result) generations(fn *ssa.Function) []Generation {
	var out []Generation
	for call := range flow.Calls(fn) {
		if g, ok := r.Generator(call); ok {
			out = append(out, g)
		}
	}
	return out
}

// Mints reports whether call calls a function that makes a new key and sends it every time.
func (r *Result) Mints(call ssa.CallInstruction) (*MintsFact, bool) {
	c := call.Common()
	if callee := c.StaticCallee(); callee != nil {
		if f := r.mints[callee]; f != nil {
			return f, true
		}
	}
	return r.MintsIn(flow.Callee(c))
}

// MintsIn reports whether fn, a function of another package, makes a new key and sends it on
// every call (it has a MintsFact).
func (r *Result) MintsIn(fn *types.Func) (*MintsFact, bool) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == r.pass.Pkg {
		return nil, false
	}
	var f MintsFact
	if r.pass.ImportObjectFact(fn, &f) {
		return &f, true
	}
	return nil, false
}

// Generations returns the generator calls of a function.
func (r *Result) Generations(fn *ssa.Function) []Generation { return r.generations(fn) }
