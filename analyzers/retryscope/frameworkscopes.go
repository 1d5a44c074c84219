package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// This file finds the scopes that frameworks run again, from the tables in internal/knowledge
// (framework.go and one file per framework).

// A frameworkRun is what the package says about one function a framework runs.
type frameworkRun struct {
	fw         *framework
	registered token.Pos
	options    []*Scope // the summaries of the calls that run it with options in view
}

// frameworkScopes adds the scopes that frameworks run again: the functions this package
// registers with a framework or runs with options in view, the functions of a framework's
// shape, those that pass their context to a function that works only inside the framework,
// those taking a delivery, and the loops over deliveries. A function of another package
// registered here is a scope without a body, unless its own package recognised it (it then
// has a frameworkFact); the functions recognised here get one.
func (st *state) frameworkScopes() {
	runs := make(map[*ssa.Function]*frameworkRun)
	external := make(map[*types.Func]*frameworkRun)
	var order []*ssa.Function
	var externalOrder []*types.Func
	var calls []ssa.CallInstruction // the registration of each external function
	local := func(fn *ssa.Function, fw *framework) *frameworkRun {
		r := runs[fn]
		if r == nil {
			r = &frameworkRun{fw: fw}
			runs[fn] = r
			order = append(order, fn)
		}
		return r
	}
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			fw, e, isRun := frameworkCall(call)
			if fw == nil {
				continue
			}
			c := st.newSite(call, flow.Callee(call.Common()))
			var opts *Scope
			if isRun {
				opts = &Scope{}
				fw.lib.summarise(c, e, opts)
			}
			funcs, objs := st.registered(c.Arg(e.Arg))
			if isRun && len(funcs) == 0 && len(objs) == 0 {
				// Run by its registered name (ExecuteActivity(ctx, DeleteVPCName, input)): the
				// one function of the package that takes what the run passes.
				if f := st.byInput(c, e); f != nil {
					funcs = append(funcs, f)
				}
			}
			for _, f := range funcs {
				r := local(f, fw)
				r.note(call, opts)
			}
			for _, obj := range objs {
				var fact frameworkFact
				if obj.Pkg() == st.pass.Pkg || st.pass.ImportObjectFact(obj, &fact) {
					continue // its own package treats it as a scope
				}
				r := external[obj]
				if r == nil {
					r = &frameworkRun{fw: fw}
					external[obj] = r
					externalOrder = append(externalOrder, obj)
					calls = append(calls, call)
				}
				r.note(call, opts)
			}
		}
	}
	for _, fn := range st.funcs {
		if fw := st.recognise(fn); fw != nil && runs[fn] == nil {
			local(fn, fw)
		}
	}
	for _, fn := range order {
		s := st.functionScope(fn, runs[fn])
		if s == nil {
			continue
		}
		st.add(s)
		if obj, ok := fn.Object().(*types.Func); ok {
			st.export(obj, &frameworkFact{Framework: s.Framework, Kind: s.Kind})
		}
	}
	for i, obj := range externalOrder {
		r := external[obj]
		s := &Scope{Kind: r.fw.kind, Func: obj, Framework: r.fw.Name, Noun: r.fw.Noun, Registered: r.registered}
		if !r.summarise(s) {
			continue
		}
		st.setCallSyntax(s, calls[i])
		s.Stmt = nil
		if ids := r.fw.Identities; len(ids) > 0 {
			s.Identity = &Identity{What: ids[0].What}
		}
		st.add(s)
	}
	for _, fn := range st.funcs {
		for _, s := range st.deliveryLoops(fn) {
			st.add(s)
		}
	}
}

// byInput returns, for a run that names the function by a string (its registered name), the
// one function of the package with the framework's shape, (context.Context, T) returning an
// error last, whose T is the type of the one argument the run passes after the name; nil when
// none or several take it.
func (st *state) byInput(c *site, e *entry) *ssa.Function {
	name := flow.Unwrap(c.Arg(e.Arg))
	if mi, ok := name.(*ssa.MakeInterface); ok {
		name = mi.X
	}
	if name == nil || !typeis.String(name.Type()) {
		return nil
	}
	args := c.Variadic(e.Arg + 1)
	if len(args) != 1 {
		return nil
	}
	in := flow.Unwrap(args[0])
	if mi, ok := in.(*ssa.MakeInterface); ok {
		in = mi.X
	}
	var found *ssa.Function
	for _, fn := range st.funcs {
		sig := fn.Signature
		if fn.Parent() != nil || sig.Params().Len() != 2 || !typeis.Context(sig.Params().At(0).Type()) ||
			sig.Results().Len() == 0 || !typeis.Error(sig.Results().At(sig.Results().Len()-1).Type()) ||
			!types.Identical(sig.Params().At(1).Type(), in.Type()) {
			continue
		}
		if found != nil {
			return nil // two take it: which one the name stands for, the registration says
		}
		found = fn
	}
	return found
}

// note records a registration or run of the function.
func (r *frameworkRun) note(call ssa.CallInstruction, opts *Scope) {
	if !r.registered.IsValid() {
		r.registered = call.Pos()
	}
	if opts != nil {
		r.options = append(r.options, opts)
	}
}

// summarise fills in s from the framework's defaults, or from the options of the run in view
// that allows the most attempts; it reports false when those allow one attempt only.
func (r *frameworkRun) summarise(s *Scope) bool {
	d := r.fw.lib.Defaults
	s.Attempts, s.Wait.Kind, s.Deadline = d.Attempts, d.Wait, d.Deadline
	var most *Scope
	for _, o := range r.options {
		if most == nil || moreAttempts(o.Attempts, most.Attempts) {
			most = o
		}
	}
	if most != nil {
		s.Attempts, s.Wait.Kind, s.Deadline, s.Settings = most.Attempts, most.Wait.Kind, most.Deadline, most.Settings
	}
	return s.Attempts.Kind != BoundConst || s.Attempts.N > 1
}

// moreAttempts reports whether a allows more attempts than b: unbounded, then a run-time
// value, then unknown, then constants by size.
func moreAttempts(a, b Bound) bool {
	rank := func(x Bound) int {
		switch x.Kind {
		case BoundNone:
			return 3
		case BoundVar:
			return 2
		case BoundUnknown:
			return 1
		}
		return 0
	}
	if rank(a) != rank(b) {
		return rank(a) > rank(b)
	}
	return a.Kind == BoundConst && a.N > b.N
}

// frameworkCall returns the framework and entry of a call that registers a function with a
// framework or runs one; isRun tells which.
func frameworkCall(call ssa.CallInstruction) (fw *framework, e *entry, isRun bool) {
	id := flow.ID(flow.Callee(call.Common()))
	if id.Pkg == "" {
		return nil, nil, false
	}
	for _, fw := range frameworks {
		if !fw.lib.has(id.Pkg) {
			continue
		}
		if e := matchEntry(fw.Registers, id); e != nil {
			return fw, e, false
		}
		if e := matchEntry(fw.Runs, id); e != nil {
			return fw, e, true
		}
	}
	return nil, nil, false
}

// matchEntry returns the entry of es that names the function id, or nil.
func matchEntry(es []entry, id flow.FuncID) *entry {
	for i := range es {
		if es[i].Recv == id.Recv && slices.Contains(es[i].Names, id.Name) && (es[i].Path == "" || es[i].Path == id.Pkg) {
			return &es[i]
		}
	}
	return nil
}

// registered returns the functions that a registered value runs: a function or method value,
// the exported methods returning an error of a struct pointer, or the values of a map of
// them; those of this package by their SSA function, the others by their object.
func (st *state) registered(v ssa.Value) (local []*ssa.Function, other []*types.Func) {
	if v == nil {
		return nil, nil
	}
	v = flow.Unwrap(v)
	if m, ok := v.(*ssa.MakeMap); ok && m.Referrers() != nil {
		for _, r := range *m.Referrers() {
			if u, ok := r.(*ssa.MapUpdate); ok && u.Map == m {
				l, o := st.registered(u.Value)
				local, other = append(local, l...), append(other, o...)
			}
		}
		return local, other
	}
	add := func(fn *ssa.Function, obj *types.Func) {
		switch {
		case fn != nil && len(fn.Blocks) > 0 && fn.Pkg != nil && fn.Pkg.Pkg == st.pass.Pkg && flow.Syntax(fn) != nil:
			local = append(local, fn)
		case obj != nil && obj.Pkg() != nil:
			obj = obj.Origin() // an instance of a generic function of another package
			if f := st.funcOf(obj); f != nil {
				local = append(local, f)
			} else {
				other = append(other, obj)
			}
		}
	}
	if fn := targetFunc(v); fn != nil {
		if fn.Synthetic != "" && len(fn.Blocks) > 0 {
			return nil, nil // an interface method's value: whatever implements it runs
		}
		obj, _ := fn.Object().(*types.Func)
		add(fn, obj)
		return local, other
	}
	for _, m := range exportedMethods(v.Type()) {
		add(nil, m)
	}
	return local, other
}

// funcOf returns the SSA function of a function or method of this package, or nil.
func (st *state) funcOf(obj *types.Func) *ssa.Function {
	if obj.Pkg() != st.pass.Pkg {
		return nil
	}
	if st.byObj == nil {
		st.byObj = make(map[*types.Func]*ssa.Function)
		for _, fn := range st.funcs {
			if o, ok := fn.Object().(*types.Func); ok {
				st.byObj[o] = fn
			}
		}
	}
	return st.byObj[obj]
}

// exportedMethods returns the exported methods returning an error of the named struct type
// that t is or points to (what Temporal and Cadence register for a struct pointer).
func exportedMethods(t types.Type) []*types.Func {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
		return nil
	}
	var out []*types.Func
	ms := types.NewMethodSet(types.NewPointer(n))
	for i := range ms.Len() {
		m, ok := ms.At(i).Obj().(*types.Func)
		if ok && m.Exported() && typeis.ReturnsError(m.Type().(*types.Signature)) {
			out = append(out, m)
		}
	}
	return out
}

// recognise returns the framework that runs fn wherever it is registered: fn has one of its
// shapes, passes its context parameter to one of its marks, or takes one of its deliveries
// (and requeues it, where the framework needs that) in a package that builds none itself.
func (st *state) recognise(fn *ssa.Function) *framework {
	if fn.Synthetic != "" || flow.Syntax(fn) == nil {
		return nil
	}
	for _, fw := range frameworks {
		if slices.ContainsFunc(fw.Shapes, func(sh shape) bool { return shapeMatches(sh, fn) }) ||
			fw.marksContext(fn) ||
			slices.ContainsFunc(params(fn), func(p *ssa.Parameter) bool { return fw.delivers(p.Type()) }) &&
				!st.buildsDeliveries(fw) && fw.requeued(fn, fn.Blocks) {
			return fw
		}
	}
	return nil
}

// buildsDeliveries reports whether the package writes a composite literal of one of the
// framework's delivery types (a marshaller making SQS messages to send): a parameter of that
// type may then hold one it made rather than one delivered.
func (st *state) buildsDeliveries(fw *framework) bool {
	if st.builds == nil {
		st.builds = make(map[*framework]bool)
		for expr, tv := range st.pass.TypesInfo.Types {
			if _, ok := expr.(*ast.CompositeLit); !ok || tv.Type == nil {
				continue
			}
			for _, f := range frameworks {
				if f.delivers(tv.Type) {
					st.builds[f] = true
				}
			}
		}
	}
	return st.builds[fw]
}

// params returns fn's parameters, receiver excluded.
func params(fn *ssa.Function) []*ssa.Parameter {
	ps := fn.Params
	if fn.Signature.Recv() != nil && len(ps) > 0 {
		ps = ps[1:]
	}
	return ps
}

// shapeMatches reports whether fn has the shape sh.
func shapeMatches(sh shape, fn *ssa.Function) bool {
	if sh.Method != "" && (fn.Signature.Recv() == nil || fn.Name() != sh.Method) {
		return false
	}
	ps, rs := fn.Signature.Params(), fn.Signature.Results()
	if ps.Len() != len(sh.Params) || rs.Len() != len(sh.Results) {
		return false
	}
	for i, p := range sh.Params {
		if !typeMatches(ps.At(i).Type(), p) {
			return false
		}
	}
	for i, r := range sh.Results {
		if !typeMatches(rs.At(i).Type(), r) {
			return false
		}
	}
	return true
}

// typeMatches reports whether t is the type spec names: "context.Context", "error", or
// "pkg/path.Name" with a leading "*" for a pointer to it.
func typeMatches(t types.Type, spec string) bool {
	switch spec {
	case "context.Context":
		return typeis.Context(t)
	case "error":
		return typeis.Error(t)
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	if ptr := strings.HasPrefix(spec, "*"); ptr != isPtr {
		return false
	}
	spec = strings.TrimPrefix(spec, "*")
	dot := strings.LastIndex(spec, ".")
	return dot > 0 && typeis.Named(t, spec[:dot], spec[dot+1:])
}

// delivers reports whether t is one of the framework's deliveries, or a pointer to one.
func (fw *framework) delivers(t types.Type) bool {
	for _, d := range fw.Deliveries {
		if typeMatches(t, d) || typeMatches(t, "*"+d) {
			return true
		}
	}
	return false
}

// marksContext reports whether fn, which can fail as what the framework runs must (its last
// result is an error), passes its own context parameter to one of the framework's marks; a
// helper of those functions that uses their context (a logger's constructor) is not one.
func (fw *framework) marksContext(fn *ssa.Function) bool {
	if len(fw.Marks) == 0 || !typeis.ReturnsError(fn.Signature) {
		return false
	}
	var ctx *ssa.Parameter
	for _, p := range params(fn) {
		if typeis.Context(p.Type()) {
			ctx = p
			break
		}
	}
	if ctx == nil {
		return false
	}
	for call := range flow.Calls(fn) {
		c := call.Common()
		if !slices.Contains(fw.Marks, flow.ID(flow.Callee(c))) || len(c.Args) == 0 {
			continue
		}
		from := false
		flow.Backward(c.Args[0], 64, func(x ssa.Value) bool {
			from = from || x == ctx
			return !from
		})
		if from {
			return true
		}
	}
	return false
}

// requeued reports whether the framework delivers again what the code in blocks (and the
// closures of their function, and the package's functions they call) handles: always, unless
// it redelivers only on request (requeues), which the code must then make with an argument
// other than the constant false.
func (fw *framework) requeued(fn *ssa.Function, blocks []*ssa.BasicBlock) bool {
	return len(fw.Requeues) == 0 || fw.requeuedIn(fn, blocks, make(map[*ssa.Function]bool))
}

func (fw *framework) requeuedIn(fn *ssa.Function, blocks []*ssa.BasicBlock, seen map[*ssa.Function]bool) bool {
	if seen[fn] || len(seen) > 16 {
		return false
	}
	seen[fn] = true
	requeues := func(call ssa.CallInstruction) bool {
		callee := flow.Callee(call.Common())
		e := fw.match(fw.Requeues, flow.ID(callee))
		if e == nil {
			return false
		}
		v := flow.NewSite(call.Common(), callee).Arg(e.Arg)
		b, isConst := flow.BoolConst(v)
		return v != nil && (!isConst || b)
	}
	for call := range flow.BlockCalls(blocks) {
		if requeues(call) {
			return true
		}
		if callee := call.Common().StaticCallee(); callee != nil && callee.Pkg == fn.Pkg && callee.Synthetic == "" &&
			fw.requeuedIn(callee, callee.Blocks, seen) {
			return true
		}
	}
	for _, anon := range fn.AnonFuncs {
		if fw.requeuedIn(anon, anon.Blocks, seen) {
			return true
		}
	}
	return false
}

// functionScope returns the scope of a function that a framework runs, or nil when the
// options in view allow one attempt only.
func (st *state) functionScope(fn *ssa.Function, r *frameworkRun) *Scope {
	fw := r.fw
	s := &Scope{Kind: fw.kind, Fn: fn, Framework: fw.Name, Noun: fw.Noun, Registered: r.registered}
	if !r.summarise(s) {
		return nil
	}
	s.Func, _ = fn.Object().(*types.Func)
	switch syn := flow.Syntax(fn).(type) {
	case *ast.FuncDecl:
		if syn.Body != nil {
			s.Node, s.Body, s.From, s.To = syn, syn, syn.Body.Pos(), syn.Body.End()
		}
	case *ast.FuncLit:
		s.Node, s.Body, s.From, s.To = syn, syn, syn.Body.Pos(), syn.Body.End()
	}
	s.Calls = slices.Collect(flow.Calls(fn))
	var vars []*types.Var
	for _, p := range params(fn) {
		if v, ok := p.Object().(*types.Var); ok {
			vars = append(vars, v)
		}
	}
	s.Identity = st.identity(fw, fn, vars)
	return s
}

// identity returns the first of the framework's identities that one of vars (or, for a
// fetched object, what its fetch call fills in fn) can give, or one that names what to
// derive a key from when none can.
func (st *state) identity(fw *framework, fn *ssa.Function, vars []*types.Var) *Identity {
	if len(fw.Identities) == 0 {
		return nil
	}
	for _, id := range fw.Identities {
		var found []IdentityVar
		if id.Fetched {
			found = st.fetched(fw, fn)
		} else {
			for _, v := range vars {
				if v.Name() != "" && v.Name() != "_" && typeMatches(v.Type(), id.Of) {
					found = append(found, IdentityVar{Var: v, From: v.Pos()})
				}
			}
		}
		if len(found) == 0 || id.Expr == "" {
			continue
		}
		out := &Identity{What: id.What, Expr: id.Expr, Vars: found, Imports: make(map[string]string)}
		for _, p := range id.Imports {
			out.Imports[path.Base(p)] = p
		}
		return out
	}
	return &Identity{What: fw.Identities[0].What}
}

// fetched returns the variables whose address or pointer fn passes to the framework's fetch
// call (r.Get(ctx, req.NamespacedName, &obj)), each holding the object after that call.
func (st *state) fetched(fw *framework, fn *ssa.Function) []IdentityVar {
	if fw.Fetch == nil {
		return nil
	}
	var out []IdentityVar
	for call := range flow.Calls(fn) {
		id := flow.ID(flow.Callee(call.Common()))
		if !fw.lib.has(id.Pkg) || matchEntry([]entry{*fw.Fetch}, id) == nil {
			continue
		}
		cur, ok := st.calls[call.Pos()]
		if !ok {
			continue
		}
		ce := cur.Node().(*ast.CallExpr)
		if fw.Fetch.Arg >= len(ce.Args) {
			continue
		}
		x := ast.Unparen(ce.Args[fw.Fetch.Arg])
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
			x = ast.Unparen(u.X)
		}
		if ident, ok := x.(*ast.Ident); ok {
			if v, ok := st.pass.TypesInfo.ObjectOf(ident).(*types.Var); ok && !v.IsField() {
				out = append(out, IdentityVar{Var: v, From: ce.End()})
			}
		}
	}
	return out
}
