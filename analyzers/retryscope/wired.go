package retryscope

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// Layers that meet through an interface. A retry scope of one package calls a method of an
// interface value its callers hand in (a driver, a replica's storage client); the program's
// wiring, in a package that imports it, hands in a concrete value whose method retries on
// its own. Neither package sees both layers: the one that retries exports a throughFact on
// the function or field through which the value comes in, and the wiring, which sees the
// concrete type, finds the inner layer (Result.Wired).

// throughFact marks an exported function, a package variable holding one (var NewTopic =
// newTopic), or an exported field, through which an interface value comes in to be called
// in a retry scope of its package.
type throughFact struct {
	Param    int      // the argument, receiver excluded; -1 for a field
	Methods  []string // the methods the scope calls on the value
	Verdict  string   // a method of the value that decides whether to go round (IsRetryable), or ""
	Where    string   // the scope, as file:line: kind
	Attempts Bound
	On       Failures
	Refuses  []string // the program's error variables the scope never goes round on (predicateSentinels)
}

func (*throughFact) AFact() {}

func (f *throughFact) String() string {
	s := fmt.Sprintf("retries %s through param %d: %s", strings.Join(f.Methods, ", "), f.Param, f.Where)
	if f.Verdict != "" {
		s += " when " + f.Verdict
	}
	return s
}

// A Wired is a call (or a store into a field) of this package that hands a value of a
// concrete type to another package's retry scope, whose method called there retries on its
// own: the attempts multiply.
type Wired struct {
	Pos      token.Pos // the call or the store
	Via      string    // what the value is handed to: "pubsub.NewTopic", "litestream.Replica.Client"
	Outer    string    // the other package's scope, as file:line: kind
	Attempts Bound     // the outer scope's attempts
	Method   string    // the concrete method the outer scope calls ("topic.SendBatch")
	Inner    *Scope    // the inner scope, when this package holds it
	Fact     *retriesFact
	On       Failures // the failures both layers retry; zero: every failure
}

// origin is where an interface value called in a scope comes from: a parameter of a function
// (or of the function a package variable holds), or a field.
type origin struct {
	obj   types.Object // *types.Func, or *types.Var of a package variable or a field
	param int          // -1 for a field
}

// exportThroughs exports a throughFact for each exported way in of an interface value whose
// methods a retry scope of the package calls.
func (st *state) exportThroughs() {
	facts := make(map[origin]*throughFact)
	for _, s := range st.res.Scopes {
		if s.Kind.FromFramework() || s.Poll || s.Reach == remote.ReachLocal || !s.Multiplies() {
			continue
		}
		for _, call := range st.reachedCalls(s.Calls, 2) {
			cc := call.Common()
			if !cc.IsInvoke() || !fallible(call) || !layerIface(cc.Value.Type()) {
				continue // the attempt's work: a fallible method of a non-standard interface
			}
			for _, o := range st.origins(cc.Value, 0) {
				f := facts[o]
				if f == nil {
					f = &throughFact{Param: o.param, Where: st.where(s), Attempts: s.Attempts, On: s.RetrySet(), Verdict: st.verdictOn(s, cc.Value), Refuses: s.helperRefuses}
					facts[o] = f
				}
				if !slices.Contains(f.Methods, cc.Method.Name()) {
					f.Methods = append(f.Methods, cc.Method.Name())
				}
			}
		}
	}
	for o, f := range facts {
		slices.Sort(f.Methods)
		st.pass.ExportObjectFact(o.obj, f)
	}
}

// layerIface reports whether t is an interface that another layer may implement: one
// declared outside the standard library (a driver, a storage client), or http.RoundTripper;
// not a context, an error or an io.Reader.
func layerIface(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	path := named.Obj().Pkg().Path()
	return !ssapkg.IsStdPath(path) || path == "net/http" && named.Obj().Name() == "RoundTripper"
}

// reachedCalls returns calls and the calls of the package's functions they call, depth deep.
func (st *state) reachedCalls(calls []ssa.CallInstruction, depth int) []ssa.CallInstruction {
	out := slices.Clone(calls)
	seen := make(map[*ssa.Function]bool)
	for d := 0; d < depth; d++ {
		var next []ssa.CallInstruction
		for _, c := range out {
			callee := c.Common().StaticCallee()
			if callee == nil || callee.Pkg != st.ssaPkg || seen[callee] {
				continue
			}
			seen[callee] = true
			for cc := range flow.Calls(callee) {
				next = append(next, cc)
			}
		}
		out = append(out, next...)
	}
	return out
}

// origins returns the exported ways in of v: a parameter of an exported function (or of one
// an exported package variable holds), an exported field of an exported type; through
// closures' captures, the package's own calls and what the package stores in a field.
func (st *state) origins(v ssa.Value, depth int) []origin {
	return st.originsSeen(v, depth, make(map[ssa.Value]bool))
}

func (st *state) originsSeen(v ssa.Value, depth int, seen map[ssa.Value]bool) []origin {
	if depth > 4 || seen[v] || len(seen) > 256 {
		return nil
	}
	seen[v] = true
	var out []origin
	if c := flow.Captured(v); c != nil && c != flow.Unwrap(v) {
		return st.originsSeen(c, depth+1, seen) // a closure's captured variable: what it holds
	}
	switch x := flow.Unwrap(v).(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			break
		}
		if fa, ok := x.X.(*ssa.FieldAddr); ok && flow.FieldVar(fa) != nil {
			fv := flow.FieldVar(fa)
			if owner := flow.FieldOwner(fv); fv.Pkg() == st.pass.Pkg && fv.Exported() && owner != nil && owner.Exported() {
				out = append(out, origin{obj: fv, param: -1})
			}
			for _, s := range st.stores.Fields[fv] {
				out = append(out, st.originsSeen(s, depth+1, seen)...)
			}
		}
	case *ssa.Parameter:
		g := x.Parent()
		i := slices.Index(g.Params, x)
		if g.Signature.Recv() != nil {
			i--
		}
		if i < 0 {
			break
		}
		if obj, ok := g.Object().(*types.Func); ok && obj.Exported() && obj.Pkg() == st.pass.Pkg {
			out = append(out, origin{obj: obj, param: i})
		}
		if gv := st.heldBy(g); gv != nil {
			out = append(out, origin{obj: gv, param: i})
		}
		for _, c := range st.stores.Calls[g] {
			args := c.Common().Args
			if j := slices.Index(g.Params, x); j < len(args) {
				out = append(out, st.originsSeen(args[j], depth+1, seen)...)
			}
		}
	}
	return out
}

// heldBy returns the exported package variable that holds fn (var NewTopic = newTopic), or nil.
func (st *state) heldBy(fn *ssa.Function) *types.Var {
	init := st.ssaPkg.Func("init")
	if init == nil {
		return nil
	}
	for _, b := range init.Blocks {
		for _, instr := range b.Instrs {
			if s, ok := instr.(*ssa.Store); ok && s.Val == fn {
				if g, ok := s.Addr.(*ssa.Global); ok {
					if obj, ok := g.Object().(*types.Var); ok && obj.Exported() {
						return obj
					}
				}
			}
		}
	}
	return nil
}

// verdictOn returns the method of value v that decides whether scope s goes round: a method
// value of v handed to the library or helper whose callback s is (retry.Call(ctx, bo,
// d.IsRetryable, f)), or a method of v that a loop asks about an error; "" otherwise.
func (st *state) verdictOn(s *Scope, v ssa.Value) string {
	same := func(x ssa.Value) bool {
		a, b := st.origins(x, 0), st.origins(v, 0)
		return slices.ContainsFunc(a, func(o origin) bool { return slices.Contains(b, o) })
	}
	if s.Site != nil {
		for _, a := range s.Site.Common().Args {
			if mc, ok := flow.Unwrap(a).(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
				if fn, ok := mc.Fn.(*ssa.Function); ok && strings.HasSuffix(fn.Name(), "$bound") && same(mc.Bindings[0]) {
					return strings.TrimSuffix(fn.Name(), "$bound")
				}
			}
		}
	}
	// In a loop: a method of v that judges an error (if !d.IsRetryable(err) { return err }).
	for _, c := range s.Calls {
		cc := c.Common()
		if !cc.IsInvoke() || len(cc.Args) != 1 || !typeis.ErrorLike(cc.Args[0].Type()) {
			continue
		}
		if res := cc.Signature().Results(); res.Len() == 1 && typeis.Bool(res.At(0).Type()) && same(cc.Value) {
			return cc.Method.Name()
		}
	}
	return ""
}

// wired finds the calls and stores of this package that hand a concrete value to another
// package's retry scope (a throughFact) whose methods called there retry on their own.
func (st *state) wired() {
	for _, fn := range st.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var obj types.Object
				var arg ssa.Value
				switch x := instr.(type) {
				case ssa.CallInstruction:
					cc := x.Common()
					if cc.IsInvoke() {
						continue
					}
					recv := 0
					if callee := cc.StaticCallee(); callee != nil && callee.Object() != nil {
						obj = callee.Object()
						if callee.Signature.Recv() != nil {
							recv = 1
						}
					} else if ld, ok := cc.Value.(*ssa.UnOp); ok && ld.Op == token.MUL {
						if g, ok := ld.X.(*ssa.Global); ok {
							obj = g.Object()
						}
					}
					if obj == nil || obj.Pkg() == st.pass.Pkg {
						continue
					}
					var f throughFact
					if !st.pass.ImportObjectFact(obj, &f) || f.Param < 0 || f.Param+recv >= len(cc.Args) {
						continue
					}
					arg = cc.Args[f.Param+recv]
					st.wire(instr.Pos(), objName(obj), &f, arg)
				case *ssa.Store:
					fa, ok := x.Addr.(*ssa.FieldAddr)
					if !ok || flow.FieldVar(fa) == nil || flow.FieldVar(fa).Pkg() == st.pass.Pkg {
						continue
					}
					var f throughFact
					if fv := flow.FieldVar(fa); st.pass.ImportObjectFact(fv, &f) {
						st.wire(x.Pos(), objName(fv), &f, x.Val)
					}
				}
			}
		}
	}
}

// wire records a Wired at pos when v, handed to the retry scope of f, has a concrete type
// whose method the scope calls retries on its own, and the scope goes round on what that
// layer retries: not when the value's verdict method always says no.
func (st *state) wire(pos token.Pos, via string, f *throughFact, v ssa.Value) {
	for _, t := range st.concreteTypes(v, 0) { // none when the concrete type is not known here
		if st.wireType(pos, via, f, v, t) {
			return // one finding per wiring
		}
	}
}

// wireType records a Wired at pos when a value of concrete type t, handed to the retry scope
// of f, retries on its own (see wire), and reports whether it did.
func (st *state) wireType(pos token.Pos, via string, f *throughFact, v ssa.Value, t types.Type) bool {
	on := f.On
	if f.Verdict != "" {
		vm := methodOf(t, f.Verdict)
		if vm != nil && st.alwaysFalse(vm) {
			return false // the value tells the scope never to go round: only one layer retries
		}
		if vm == nil {
			return false // no such method: not the value the fact is about
		}
		if vfn := st.funcOf(vm); vfn != nil && len(vfn.Params) == 2 && typeis.ErrorLike(vfn.Params[1].Type()) {
			if vo, _, ok := predicateSummary(vfn, 1, 0); ok {
				on = intersect(on, vo) // the failures the value tells the scope to go round on
			}
		}
	}
	for _, name := range f.Methods {
		m := methodOf(t, name)
		if m == nil {
			continue
		}
		w := &Wired{Pos: pos, Via: via, Outer: f.Where, Attempts: f.Attempts, Method: flow.Name(m, st.pass.Pkg), On: on}
		w.Inner, w.Fact = st.layerOf(m)
		if w.Inner == nil && w.Fact == nil && m.Pkg() != st.pass.Pkg {
			// A method of a layer of another package that forwards to the implementation the
			// wiring put in it (sharded.New(&davImpl{...})): that implementation's method.
			vals, methods := st.forwardedTo(v, t, m)
			for i := 0; i < len(vals) && w.Inner == nil && w.Fact == nil; i++ {
				for _, it := range st.concreteTypes(vals[i], 0) {
					if im := methodOf(it, methods[i]); im != nil {
						if w.Inner, w.Fact = st.layerOf(im); w.Inner != nil || w.Fact != nil {
							w.Method = flow.Name(im, st.pass.Pkg)
							break
						}
					}
				}
			}
		}
		switch {
		case w.Inner != nil:
			w.On = intersect(w.On, w.Inner.RetrySet())
			if w.On == FailOther && refusesAll(f.Refuses, w.Inner.retriedSentinels()) {
				w.On = 0 // the outer scope turns down each error the inner one goes round on
			}
		case w.Fact != nil:
			w.On = intersect(w.On, w.Fact.On)
			if w.On == FailOther && refusesAll(f.Refuses, w.Fact.Only) {
				w.On = 0
			}
		}
		if (w.Inner != nil || w.Fact != nil) && w.On&^FailAnswered != 0 {
			st.res.Wired = append(st.res.Wired, w)
			return true
		}
	}
	return false
}

// layerOf returns the retry layer that method m is: the scope it reaches, when it is the
// package's, or its retriesFact (nil, nil when it retries nothing remote on its own).
func (st *state) layerOf(m *types.Func) (*Scope, *retriesFact) {
	if m.Pkg() == st.pass.Pkg {
		fn := st.funcOf(m)
		if fn == nil {
			return nil, nil
		}
		if s := st.res.reaches[fn]; s != nil && !s.Poll && s.Reach != remote.ReachLocal {
			return s, nil
		}
		if rf := st.res.retries[fn]; rf != nil && !rf.Local && !rf.Kept {
			return nil, rf
		}
		return nil, nil
	}
	var rf retriesFact
	if st.pass.ImportObjectFact(m, &rf) && !rf.Local && !rf.Kept {
		return nil, &rf
	}
	return nil, nil
}

// objName names obj as seen from another package: "pubsub.NewTopic", "litestream.Replica.Client".
func objName(obj types.Object) string {
	name := obj.Name()
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			if named := namedOf(recv.Type()); named != nil {
				name = named.Obj().Name() + "." + name
			}
		}
	}
	if v, ok := obj.(*types.Var); ok && v.IsField() {
		if owner := flow.FieldOwner(v); owner != nil {
			name = owner.Name() + "." + name
		}
	}
	if obj.Pkg() != nil {
		name = obj.Pkg().Name() + "." + name
	}
	return name
}

// intersect returns the failures in both sets, zero standing for every failure.
func intersect(a, b Failures) Failures {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	}
	return a & b
}

// concreteTypes returns the concrete types v may hold that the package knows: converted to
// the interface here, or returned by a function of the package that returns it (followed
// three calls deep), one type for each of its returns that says (a constructor that hands
// back the store itself, or a point-in-time view of it, by option).
func (st *state) concreteTypes(v ssa.Value, depth int) []types.Type {
	x := flow.Unwrap(v) // through the conversion to the interface
	if _, isIface := x.Type().Underlying().(*types.Interface); !isIface {
		return []types.Type{x.Type()}
	}
	if depth > 3 {
		return nil
	}
	idx := 0
	if ex, ok := x.(*ssa.Extract); ok {
		idx, x = ex.Index, ex.Tuple
	}
	call, ok := x.(*ssa.Call)
	if !ok {
		return nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg != st.ssaPkg || len(callee.Blocks) == 0 {
		return nil
	}
	var found []types.Type
	for ret := range flow.Returns(callee) {
		if idx >= len(ret.Results) {
			return nil
		}
		r := ret.Results[idx]
		if flow.IsNil(r) {
			continue // the error's way out
		}
		for _, t := range st.concreteTypes(r, depth+1) {
			if !slices.ContainsFunc(found, func(o types.Type) bool { return types.Identical(o, t) }) {
				found = append(found, t)
			}
		}
	}
	return found
}

// methodOf returns the method of t (or *t) named name, or nil.
func methodOf(t types.Type, name string) *types.Func {
	var pkg *types.Package
	if named := namedOf(t); named != nil {
		pkg = named.Obj().Pkg()
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	for _, tt := range []types.Type{t, types.NewPointer(t)} {
		if sel := types.NewMethodSet(tt).Lookup(pkg, name); sel != nil {
			if fn, ok := sel.Obj().(*types.Func); ok {
				return fn
			}
		}
	}
	return nil
}

// alwaysFalse reports whether method m, of this package, returns the constant false on every
// return (func (*topic) IsRetryable(error) bool { return false }).
func (st *state) alwaysFalse(m *types.Func) bool {
	if m.Pkg() != st.pass.Pkg {
		return false
	}
	fn := st.funcOf(m)
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	found := false
	for ret := range flow.Returns(fn) {
		if len(ret.Results) != 1 {
			return false
		}
		c, ok := ret.Results[0].(*ssa.Const)
		if !ok || c.Value == nil || c.Value.String() != "false" {
			return false
		}
		found = true
	}
	return found
}
