package retryscope

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// This file holds the machinery that reads retry libraries' configurations; the libraries
// themselves are data in internal/knowledge (one file each), and hooks.go holds what only code
// can say. To teach the model a library, add a file there. Users
// can add helpers without code through the -retryscope.helpers flag.

// The library tables' vocabulary.
type (
	entry   = knowledge.Entry
	summary = knowledge.Summary
	option  = knowledge.Option
	count   = knowledge.Count
)

// returnsVerdict reports whether sig's last result is one of a library's verdict types.
func returnsVerdict(sig *types.Signature) bool {
	r := sig.Results()
	if r.Len() == 0 {
		return false
	}
	t := r.At(r.Len() - 1).Type()
	for _, lib := range libraries {
		for _, p := range lib.Paths {
			for _, name := range lib.Verdicts {
				if typeis.Named(t, p, name) {
					return true
				}
			}
		}
	}
	return false
}

// A Setting is one option, constructor, literal, variable or field that configured a library
// scope, with where it is and what it set (a zero Kind: nothing of that).
type Setting struct {
	Name     string // "DelayType", "ExponentialBackOff.RandomizationFactor"
	Pos      token.Pos
	Value    ssa.Value // the value it was given, if any
	Attempts Bound
	Wait     WaitKind
	Deadline DeadlineKind
	Jitter   *knowledge.JitterFix // how a fix turns jitter on where this setting left it off
}

// summarise fills in s from the library's defaults and the settings that reach a call of e.
func (lib *library) summarise(c *site, e *entry, s *Scope) {
	d := lib.Defaults
	if e.Over != nil {
		d = *e.Over
	}
	s.Attempts, s.Wait.Kind, s.Deadline = d.Attempts, d.Wait, d.Deadline
	s.Poll, s.lib = e.Poll, lib
	var vals []ssa.Value
	for _, i := range e.Config {
		if i < 0 {
			vals = append(vals, c.origins(c.Recv)...)
		} else {
			vals = append(vals, c.Variadic(i)...)
		}
	}
	if lib.Mutates {
		vals = append(vals, c.mutators(lib, vals)...)
	}
	fs := lib.found(c, vals)
	off, on := false, Bound{} // a setting of one attempt; the last of more
	for _, a := range fs {
		switch b := lib.apply(a, s); {
		case b.Kind == BoundUnknown:
		case b.Kind == BoundConst && b.N <= 1:
			off = true
		default:
			on = b
		}
	}
	if off && on.Kind != BoundUnknown {
		// Set to one attempt and to more: the layer retries where the program does not
		// switch it off, whichever store the walk found last.
		s.SwitchedOff, s.Attempts = true, on
	}
	if len(lib.Made) > 0 && !slices.ContainsFunc(fs, func(f found) bool { return slices.Contains(lib.Made, f.name) }) && len(e.Config) > 0 {
		s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundUnknown}, WaitUnknown, DeadlineUnknown
		s.Settings = nil
	}
	if lib.adjust != nil {
		lib.adjust(c, s, vals)
	}
	var ctxs []ssa.Value // the contexts that bound it
	if e.Ctx >= 0 && bounded(c.Arg(e.Ctx)) {
		s.Deadline = DeadlineContext
		ctxs = append(ctxs, c.Arg(e.Ctx))
	}
	timed := d.Deadline == DeadlineElapsed // a time limit of its own, which a context does not replace
	for _, set := range s.Settings {
		switch set.Deadline {
		case DeadlineElapsed:
			timed = true
		case DeadlineNone:
			timed = false
		case DeadlineContext:
			ctxs = append(ctxs, set.Value)
		}
	}
	s.UntilContext = s.Attempts.Kind == BoundNone && s.Deadline == DeadlineContext && !timed && !s.Poll &&
		!slices.ContainsFunc(ctxs, hasDeadline)
}

// An applied setting: the table's rule, and where and with what value it was found.
type found struct {
	name  string
	rule  option
	pos   token.Pos
	value ssa.Value
}

// found returns the settings of the library among the computation of vals, constructors
// first, each once.
func (lib *library) found(c *site, vals []ssa.Value) []found {
	type key struct {
		name string
		at   ssa.Value
	}
	var out []found
	seen := make(map[key]bool)
	add := func(name string, at ssa.Value, pos token.Pos, value ssa.Value) {
		if r, ok := lib.Settings[name]; ok && !seen[key{name, at}] {
			seen[key{name, at}] = true
			out = append(out, found{name: name, rule: r, pos: pos, value: value})
		}
	}
	// The values that configure the call, and the values stored into the library's fields on
	// the way (a functional option's o.Retryer = aws.NopRetryer{}).
	queue := slices.Clone(vals)
	field := func(name string, store *ssa.Store) {
		add(name, store.Val, store.Pos(), store.Val)
		queue = append(queue, store.Val)
	}
	for i := 0; i < len(queue) && i < 64; i++ {
		v := queue[i]
		if v == nil {
			continue
		}
		c.stores.Backward(v, 256, func(x ssa.Value) bool {
			if c.fromTest(x) {
				return false
			}
			switch x := x.(type) {
			case *ssa.Call:
				fn := flow.Callee(x.Common())
				if fn == nil || fn.Pkg() == nil || !lib.has(fn.Pkg().Path()) {
					// A function of the package that builds the policy (initBackoff()
					// returning backoff.WithMaxRetries(exp, n)): what it returns.
					if callee := x.Call.StaticCallee(); callee != nil && callee.Pkg == x.Parent().Pkg && len(callee.Blocks) > 0 && libNamed(lib, x.Type()) != nil {
						for ret := range flow.Returns(callee) {
							if len(ret.Results) == 1 {
								queue = append(queue, ret.Results[0])
							}
						}
					}
					return true
				}
				site := flow.NewSite(x.Common(), fn)
				id := flow.ID(fn)
				name := id.Name
				if _, ok := lib.Settings[id.Recv+"."+id.Name]; ok && id.Recv != "" {
					name = id.Recv + "." + id.Name
				}
				r := lib.Settings[name]
				add(name, x, x.Pos(), site.Arg(r.Arg))
			case *ssa.Global:
				if x.Pkg != nil && lib.has(x.Pkg.Pkg.Path()) {
					add(x.Name(), x, x.Pos(), nil)
				}
			case *ssa.MakeClosure, *ssa.Function:
				// A functional option, func(o *Options) { o.RetryMaxAttempts = 1 }: the fields
				// it sets on its parameters.
				if fn := localFunc(x); fn != nil {
					for _, p := range fn.Params {
						if t := libType(lib, p.Type()); t != nil {
							for name, store := range ownFields(p) {
								field(t.Obj().Name()+"."+name, store)
							}
						}
					}
				}
			}
			if t := libType(lib, x.Type()); t != nil {
				switch x := x.(type) {
				case *ssa.Alloc, *ssa.Const: // a composite literal (a fieldless one is a constant)
					add(t.Obj().Name()+"{}", x, x.Pos(), nil)
				case *ssa.FieldAddr:
					// A library struct held by value in a field of the package's (p.client
					// in p.client.Do(req)): a literal, whose parts the package sets where it
					// takes that field's address (its constructor's p := T{client: Client{...}}).
					if fv := flow.FieldVar(x); fv != nil && (c.pass == nil || fv.Pkg() == c.pass.Pkg) && len(c.stores.StructFields[fv]) > 0 {
						add(t.Obj().Name()+"{}", x, fv.Pos(), nil)
						for _, fa := range c.stores.StructFields[fv] {
							if fa != x && !c.fromTest(fa) {
								libFields(lib, fa, 0, field)
							}
						}
						for _, v := range c.stores.Fields[fv] {
							if !c.fromTest(v) {
								queue = append(queue, v) // p.client = retryablehttp.Client{...}
							}
						}
					}
				}
				libFields(lib, x, 0, field)
			}
			return true
		})
	}
	// Constructors before options; within a layer, what adds jitter last, so that jitter
	// wrapped around a backoff wins whatever order the walk found them in.
	order := func(f found) int {
		k := 2 * f.rule.Layer
		if f.rule.Wait == WaitJittered {
			k++
		}
		return k
	}
	sort.SliceStable(out, func(i, j int) bool { return order(out[i]) < order(out[j]) })
	return out
}

// libFields passes to set the fields stored into the library struct that x points to, named
// by their struct type ("RetryOptions.MaxRetries"), also those of the library structs it holds
// by value (azblob.ClientOptions{ClientOptions: azcore.ClientOptions{Retry: ...}}).
func libFields(lib *library, x ssa.Value, depth int, set func(name string, store *ssa.Store)) {
	t := libType(lib, x.Type())
	if t == nil || depth > 3 {
		return
	}
	for name, stores := range allOwnFields(x) {
		for _, store := range stores {
			set(t.Obj().Name()+"."+name, store)
		}
	}
	if refs := x.Referrers(); refs != nil {
		for _, r := range *refs {
			if fa, ok := r.(*ssa.FieldAddr); ok && fa.X == x {
				libFields(lib, fa, depth+1, set)
			}
		}
	}
}

// libType returns the named struct type of the library that t is or points to, or nil.
func libType(lib *library, t types.Type) *types.Named {
	n := libNamed(lib, t)
	if n == nil {
		return nil
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
		return nil
	}
	return n
}

// libNamed returns the named type of lib's packages that t is or points to (a policy's
// interface, backoff.BackOff, or a struct), or nil.
func libNamed(lib *library, t types.Type) *types.Named {
	for range 2 { // a pointer, or a local variable holding one
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !lib.has(n.Obj().Pkg().Path()) {
		return nil
	}
	return n
}

// hasFunc reports whether fn is a function of the library (of another package: its
// declaration, which has no SSA package of its own).
func (lib *library) hasFunc(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	return ok && obj.Pkg() != nil && lib.has(obj.Pkg().Path())
}

// has reports whether path is one of the library's packages.
func (lib *library) has(path string) bool {
	for _, p := range lib.Paths {
		if path == p || lib.Prefix && strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// apply applies one found setting to s and records it; it returns the attempts the setting
// gives (BoundUnknown when it says nothing of them).
func (lib *library) apply(f found, s *Scope) Bound {
	r, v := f.rule, f.value
	rec := Setting{Name: f.name, Pos: f.pos, Value: v, Jitter: r.Jitter}
	zero := v != nil && flow.IsZero(v)
	switch {
	case r.Bound != nil:
		rec.Attempts = *r.Bound
	case r.Attempts.Set && v != nil:
		rec.Attempts = r.Attempts.Of(v)
	case r.Attempts.Set:
		rec.Attempts = Bound{Kind: BoundVar}
	}
	switch {
	case zero && r.ZeroWait == knowledge.KeepWait:
	case zero && r.ZeroWait != WaitUnknown:
		rec.Wait = r.ZeroWait
	case r.WaitBy != nil:
		rec.Wait = waitBy(r.WaitBy, lib, v)
	default:
		rec.Wait = r.Wait
	}
	switch {
	case zero && r.ZeroDeadline == knowledge.KeepDeadline:
	case zero && r.ZeroDeadline != DeadlineUnknown:
		rec.Deadline = r.ZeroDeadline
	case r.Deadline == DeadlineContext && v != nil && !bounded(v):
	default:
		rec.Deadline = r.Deadline
	}
	if rec.Attempts.Kind != BoundUnknown {
		s.Attempts = rec.Attempts
	}
	if rec.Wait != WaitUnknown || r.WaitBy != nil {
		s.Wait.Kind = rec.Wait
	}
	if rec.Deadline != DeadlineUnknown {
		s.Deadline = rec.Deadline
	}
	if r.Brief {
		s.Brief = true
	}
	s.Settings = append(s.Settings, rec)
	return rec.Attempts
}

// waitBy classifies a function-valued setting by the library functions it is made of
// (DelayType(CombineDelay(BackOffDelay, RandomDelay)): jittered): the most random one wins;
// a value made of none of them, such as the package's own delay function, is classified from
// its body, or unknown.
func waitBy(kinds map[string]WaitKind, lib *library, v ssa.Value) WaitKind {
	if v == nil {
		return WaitUnknown
	}
	best, matched := WaitUnknown, false
	for _, id := range funcsIn(v) {
		k, ok := kinds[id.Name]
		if !ok || !lib.has(id.Pkg) {
			continue
		}
		if !matched || k == WaitJittered || best != WaitJittered && k > best {
			best, matched = k, true
		}
	}
	if matched {
		return best
	}
	if fn := localFunc(v); fn != nil {
		// A fixed delay computed from the arguments (the attempt number) changes with them:
		// how, the model cannot say.
		if r, fromParams := returnedDelay(fn, 1, nil); r.kind != WaitFixed || !fromParams {
			return r.kind
		}
	}
	return WaitUnknown
}

// localFunc returns the function of this package that v is, when it is one with a body.
func localFunc(v ssa.Value) *ssa.Function {
	switch v := flow.Unwrap(v).(type) {
	case *ssa.Function:
		if len(v.Blocks) > 0 {
			return v
		}
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok && len(fn.Blocks) > 0 {
			return fn
		}
	}
	return nil
}

// A site is one call of a helper or client.
type site struct {
	flow.Site
	call   ssa.CallInstruction
	stores *flow.Stores // what the package stores into fields and variables
	pass   *analysis.Pass
}

func (st *state) newSite(call ssa.CallInstruction, fn *types.Func) *site {
	return &site{Site: flow.NewSite(call.Common(), fn), call: call, stores: st.stores, pass: st.pass}
}

// calls returns the calls that compute vals, following loads of fields and package variables
// to what the package stores into them, so that a client built in a constructor is seen
// where a method uses it.
func (c *site) calls(vals ...ssa.Value) []*ssa.Call {
	var out []*ssa.Call
	for _, v := range vals {
		if v == nil {
			continue
		}
		c.stores.Backward(v, 256, func(x ssa.Value) bool {
			if c.fromTest(x) {
				return false
			}
			if call, ok := x.(*ssa.Call); ok {
				out = append(out, call)
			}
			return true
		})
	}
	return out
}

// returnsRecv reports whether fn is a method that returns the value it is called on, as a
// builder's setter does (not one of the library's Copies: Clone's copy is another client).
func (lib *library) returnsRecv(fn *ssa.Function) bool {
	sig := fn.Signature
	if sig.Recv() == nil || sig.Results().Len() != 1 || slices.Contains(lib.Copies, fn.Name()) {
		return false
	}
	return types.Identical(sig.Recv().Type(), sig.Results().At(0).Type())
}

// mutators returns, for a library whose methods change the client they are called on, the
// calls of its methods that the package makes on a client kept in a field that vals are
// loaded from (c.http = resty.New() in one place, c.http.SetRetryCount(3) in another), or on
// the value its constructor returned (client := resty.New(); client.SetRetryCount(3)),
// through chains of such calls.
func (c *site) mutators(lib *library, vals []ssa.Value) []ssa.Value {
	// The fields the client itself is loaded from: back through the receivers of the library's
	// methods (c.http.R().SetBody(b)), not through what other calls are given
	// (resty.NewWithClient(c.http.GetClient()) is another client).
	fields := make(map[*types.Var]bool)
	made := make(map[ssa.Value]bool)
	seen := make(map[ssa.Value]bool)
	var from func(v ssa.Value, depth int)
	from = func(v ssa.Value, depth int) {
		if v == nil || depth > 32 || seen[v] {
			return
		}
		seen[v] = true
		switch x := flow.Unwrap(v).(type) {
		case *ssa.UnOp:
			if _, fa := flow.FieldLoad(x); fa != nil && flow.FieldVar(fa) != nil {
				fields[flow.FieldVar(fa)] = true
			}
		case *ssa.Call:
			fn := x.Call.StaticCallee()
			switch {
			case lib.hasFunc(fn) && fn.Signature.Recv() != nil && !slices.Contains(lib.Copies, fn.Name()) && len(x.Call.Args) > 0:
				from(x.Call.Args[0], depth+1)
			case lib.hasFunc(fn) && fn.Signature.Recv() == nil:
				made[x] = true // client := resty.New(): the statements on it configure it too
			default:
				for _, r := range flow.ReturnedBy(x) {
					from(r, depth+1) // m.request(ctx), a method of the package that makes it
				}
			}
		case *ssa.Parameter:
			for _, a := range flow.CallbackArgs(x) {
				from(a, depth+1) // a callback's request: what the helper calling it passes
			}
		case *ssa.Phi:
			for _, e := range x.Edges {
				from(e, depth+1)
			}
		}
	}
	for _, v := range vals {
		from(v, 0)
	}
	if len(fields) == 0 && len(made) == 0 {
		return nil
	}
	var out []ssa.Value
	for fn, calls := range c.stores.Calls {
		if !lib.hasFunc(fn) || fn.Signature.Recv() == nil {
			continue
		}
		if _, setting := lib.Settings[fn.Name()]; !setting {
			continue // (the calls that configure it: not every call of its methods)
		}
		for _, call := range calls {
			v, ok := call.(*ssa.Call)
			if !ok || c.fromTest(v) || len(call.Common().Args) == 0 {
				continue
			}
			recv := call.Common().Args[0]
			for range 16 {
				inner, ok := flow.Unwrap(recv).(*ssa.Call)
				if !ok || !lib.hasFunc(inner.Call.StaticCallee()) || !lib.returnsRecv(inner.Call.StaticCallee()) || len(inner.Call.Args) == 0 {
					break // (Clone's copy, a client made from another's http.Client: not this one)
				}
				recv = inner.Call.Args[0]
			}
			if _, fa := flow.FieldLoad(flow.Unwrap(recv)); fa != nil && fields[flow.FieldVar(fa)] || made[flow.Unwrap(recv)] {
				out = append(out, v)
			}
		}
	}
	slices.SortFunc(out, func(a, b ssa.Value) int { return cmp.Compare(a.Pos(), b.Pos()) }) // (a map's order)
	return out
}

// fromTest reports whether x is made in test code while the site's call is not: a test's
// client stored where the product's goes is not what the product runs.
func (c *site) fromTest(x ssa.Value) bool {
	return c.pass != nil && testcode.Made(c.pass, x) && !testcode.At(c.pass, c.call.Pos())
}

// origins returns v and, when v loads a field or package variable, the values stored into it,
// and theirs in turn (a field copied from another struct's field).
func (c *site) origins(v ssa.Value) []ssa.Value {
	if v == nil {
		return nil
	}
	out := []ssa.Value{v}
	seen := map[ssa.Value]bool{v: true}
	add := func(x ssa.Value) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	for i := 0; i < len(out) && len(out) < 16; i++ {
		for _, s := range c.stores.Loaded(flow.Unwrap(out[i])) {
			if c.fromTest(s) {
				continue
			}
			add(s)
		}
		for _, r := range flow.ReturnedBy(out[i]) {
			add(r)
		}
	}
	return out
}

// calledBy returns the functions that fn, a function of this package (a method value's
// wrapper, an in-house backoff method), calls, and so on depth levels down.
func calledBy(fn *ssa.Function, depth int) []flow.FuncID {
	var out []flow.FuncID
	for c := range flow.Calls(fn) {
		if callee := flow.Callee(c.Common()); callee != nil {
			out = append(out, flow.ID(callee))
		}
		if next := c.Common().StaticCallee(); next != nil && depth > 1 {
			out = append(out, calledBy(next, depth-1)...)
		}
	}
	return out
}

// funcsIn returns the functions referred to (as values or callees) in the computation of v.
func funcsIn(vals ...ssa.Value) []flow.FuncID {
	var out []flow.FuncID
	for _, v := range vals {
		if v == nil {
			continue
		}
		flow.Backward(v, 256, func(x ssa.Value) bool {
			switch x := x.(type) {
			case *ssa.Function:
				if obj, ok := x.Object().(*types.Func); ok {
					out = append(out, flow.ID(obj.Origin()))
				}
				out = append(out, calledBy(x, 2)...)
			case *ssa.Call:
				if fn := flow.Callee(x.Common()); fn != nil {
					out = append(out, flow.ID(fn))
				}
			case *ssa.Global:
				if x.Pkg != nil {
					out = append(out, flow.FuncID{Pkg: x.Pkg.Pkg.Path(), Name: x.Name()})
				}
			}
			return true
		})
	}
	return out
}

func oneOf(s string, options ...string) bool { return slices.Contains(options, s) }

// A helper is a function or method that retries one of its function arguments: a library's
// entry, or one named with -retryscope.helpers (lib nil: nothing known of its options).
type helper struct {
	id    flow.FuncID
	arg   int
	lib   *library
	entry *entry
}

// summarise fills in the scope of a call of h.
func (h *helper) summarise(c *site, s *Scope) {
	if h.lib != nil {
		h.lib.summarise(c, h.entry, s)
	}
}

// tableHelpers returns the helpers of the libraries table, by function.
func tableHelpers() []helper {
	var hs []helper
	for _, lib := range libraries {
		for i := range lib.Helpers {
			e := &lib.Helpers[i]
			for _, p := range lib.Paths {
				for _, n := range e.Names {
					hs = append(hs, helper{id: flow.FuncID{Pkg: p, Recv: e.Recv, Name: n}, arg: e.Arg, lib: lib, entry: e})
				}
			}
		}
	}
	return hs
}

// parseHelper parses a -retryscope.helpers entry: "path/to/pkg.Func:N" or
// "path/to/pkg.Type.Method:N", where N is the index of the retried function argument.
func parseHelper(s string) (helper, error) {
	spec, idx, ok := strings.Cut(s, ":")
	if !ok {
		return helper{}, fmt.Errorf("helper %q: want pkg.Func:N", s)
	}
	n, err := strconv.Atoi(idx)
	if err != nil || n < 0 {
		return helper{}, fmt.Errorf("helper %q: bad argument index %q", s, idx)
	}
	slash := strings.LastIndex(spec, "/")
	dot := strings.Index(spec[slash+1:], ".")
	if dot < 0 {
		return helper{}, fmt.Errorf("helper %q: want pkg.Func:N", s)
	}
	pkg, rest := spec[:slash+1+dot], spec[slash+1+dot+1:]
	id := flow.FuncID{Pkg: pkg, Name: rest}
	if recv, name, isMethod := strings.Cut(rest, "."); isMethod {
		id.Recv, id.Name = strings.Trim(recv, "(*)"), name
	}
	return helper{id: id, arg: n}, nil
}

// WaitsByPolicy reports whether the scope waits as its library always does, with no setting
// that could randomise the waits (see library.fixedWaits).
func (s *Scope) WaitsByPolicy() bool { return s.lib != nil && s.lib.FixedWaits }

// LibraryHints returns what the scope's library says, in its own terms, about how to cap the
// attempts and how to make the retries observe a context (deadlineHint is a format whose %s
// is the context's name); each is empty when the scope has no library or the library says
// nothing of it (see library.capHint).
func (s *Scope) LibraryHints() (capHint, deadlineHint string) {
	if s.lib == nil {
		return "", ""
	}
	return s.lib.CapHint, s.lib.DeadlineHint
}

// settingAt returns the last setting of s that set its wait, or nil (the library's default).
func (s *Scope) settingAt(kind func(Setting) bool) *Setting {
	for i := len(s.Settings) - 1; i >= 0; i-- {
		if kind(s.Settings[i]) {
			return &s.Settings[i]
		}
	}
	return nil
}

// MadeAt returns where the client of a Client scope is configured in view: its constructor or
// the first of its settings that the package gives a value of its own (not one an API method
// passes on from its caller: SetRetryCount(n)), else the first setting in view; token.NoPos
// when none is. The calls of one client configured there share its retry policy, one cause.
func (s *Scope) MadeAt() token.Pos {
	if s.Kind != Client {
		return token.NoPos
	}
	// The package's own setting rather than one that passes on its caller's value (a
	// SetRetryCount(n) method of its API): the line whose default every user runs.
	first := token.NoPos
	for _, set := range s.Settings {
		if !set.Pos.IsValid() {
			continue
		}
		if first == token.NoPos {
			first = set.Pos
		}
		if _, param := flow.Unwrap(set.Value).(*ssa.Parameter); !param {
			return set.Pos
		}
	}
	return first
}

// WaitSetting returns the setting that decided the scope's wait, or nil when the library's
// default did.
func (s *Scope) WaitSetting() *Setting {
	return s.settingAt(func(x Setting) bool { return x.Wait != WaitUnknown })
}

// AttemptsSetting returns the setting that decided the scope's attempts, or nil.
func (s *Scope) AttemptsSetting() *Setting {
	return s.settingAt(func(x Setting) bool { return x.Attempts.Kind != BoundUnknown })
}
