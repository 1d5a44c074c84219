package remote

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Facts: the functions that pass their context on to a remote call, and the calls of them.

// paramFact marks a function that passes the context of some of its parameters (a
// context.Context, or an *http.Request's context) to a remote call that nothing else bounds:
// its callers decide whether that call can hang, so the model treats a call of the function as
// a remote call too.
type paramFact struct {
	Params []Passed
}

// Passed is one parameter a function passes to a remote call, or (Index -1) a remote call
// it makes without any context because it is the context-free form of an API.
type Passed struct {
	Index   int  // among the function's SSA parameters: the receiver first, for methods; -1: none
	Request bool // an *http.Request whose context is used, rather than a context.Context
	Kind    Kind
	Name    string // the remote call, as the report names it: "sql.DB.Query"
	Callee  string // the remote call, as flow.Name names it: "DB.Query"
	At      string // where the remote call is: "client.go:30"
	Instead string // for Index -1, the function's form that takes a context, if any
	// Client is set when the parameter is a client or dialer of this type ("http.Client")
	// through which the function sends a request without a deadline, rather than a context:
	// the client's timeout decides. Context says why the request has no deadline.
	Client  string
	Context SourceKind
	src     Source // with Client, in this package: where the request is made
	// With is set, with Client, when the function's request or context parameter With also
	// bounds the call: the request is sent through the client with that request's context,
	// and the call hangs only when neither the client nor the context has a bound.
	With *With
	// Owned is set when the remote call goes through a client or dialer that the function's
	// package builds without a timeout as its default (Timeout.Owned), described as the report
	// does ("the http.Client made at client.go:34"): that client is the cause, reported
	// there, not the context a caller passes.
	Owned string
	// Streams is set when the function reads the remote call's response as a stream
	// (Call.Streams): a return from it is also the stream's end.
	Streams bool
	// Kept is set when the function keeps the context (stores it in a field of what it
	// returns or of its receiver) for a remote call made later, by a method of that value:
	// a token source given its context when it is made.
	Kept bool
	// Body is the parameter (as Index counts) the request's body is made from, when the
	// function makes the request it sends with a body it is given; -1 otherwise. A caller
	// that gives a body not in memory (a file, a pipe) uploads a stream.
	Body int
	// AtOnce is set when the request the function sends has its body in memory, or one the
	// caller gives (Body) that is (Call.AtOnce).
	AtOnce bool
	// Transport names the ResponseHeaderTimeout of the transport the function's client sends
	// through (Origin.Transport): a stalled server cannot hold a request whose body is in
	// memory, whatever context the caller gives (Timeout.byTransport).
	Transport string
	// RecvFrom is one more than the parameter (as Index counts) that every remote call the
	// context reaches is made on, or on what a call on it returned (db, or tx from
	// db.BeginTx(ctx)); 0 when not known. A caller handing nil there makes none of them: a
	// command that needs no database (RunContext(ctx, "create", nil, dir)).
	RecvFrom int
}

func (*paramFact) AFact() {}

// Unboundable reports whether nothing a caller gives bounds the remote call: the function
// takes no context, and sends through the client its package keeps, built without a Timeout.
func (p *Passed) Unboundable() bool { return p != nil && p.Index < 0 && p.Owned != "" }

func (f *paramFact) String() string {
	var parts []string
	for _, p := range f.Params {
		what, kept := "the context", ""
		if p.Kept {
			kept = ", kept for later,"
		}
		if p.Request {
			what = "the request context"
		}
		if p.Index < 0 {
			parts = append(parts, fmt.Sprintf("no context to %s at %s", p.Name, p.At))
			continue
		}
		if p.Client != "" && p.With != nil {
			parts = append(parts, fmt.Sprintf("the %s of parameter %d and the context of parameter %d to %s at %s", p.Client, p.Index, p.With.Index, p.Name, p.At))
			continue
		}
		if p.Client != "" {
			parts = append(parts, fmt.Sprintf("the %s of parameter %d to %s at %s, without a deadline", p.Client, p.Index, p.Name, p.At))
			continue
		}
		if p.Transport != "" {
			kept += " (its answer's header bounded by " + p.Transport + ")"
		}
		through := ""
		if p.Owned != "" {
			through = " through " + p.Owned
		}
		parts = append(parts, fmt.Sprintf("%s of parameter %d%s to %s at %s%s", what, p.Index, kept, p.Name, p.At, through))
	}
	return "passes " + strings.Join(parts, ", ")
}

// maxRounds bounds the rounds of viaCalls: the depth of wrappers followed in one package.
const maxRounds = 16

// viaCalls returns the calls of functions that pass their context on (the remote calls
// direct already holds, here or through an imported fact), to any depth: a function that
// passes its context to such a function passes it on too, so its callers are found in the
// next round, until no function gains a summary.
func (st *state) viaCalls(funcs []*ssa.Function, direct *Result) []*Call {
	found := make(map[ssa.CallInstruction]*Call)
	var order []ssa.CallInstruction
	changed := st.summarise(direct.Calls)
	scan := funcs
	var invokers map[*ssa.Function][]*ssa.Function
	for round := 0; round < maxRounds; round++ {
		var calls []*Call
		for _, fn := range scan {
			for call := range flow.Calls(fn) {
				callee, _ := st.calleeOf(call)
				if direct.byInstr[call] != nil || callee == nil || round > 0 && !changed[callee] {
					continue
				}
				if c := st.via(call); c != nil {
					if found[call] == nil {
						order = append(order, call)
					}
					found[call] = c
					calls = append(calls, c)
				}
			}
		}
		changed = st.summarise(calls)
		if len(changed) == 0 {
			break
		}
		scan = scan[:0:0]
		seen := make(map[*ssa.Function]bool)
		if invokers == nil {
			invokers = st.invokers(funcs)
		}
		// In source order: the first call found names a function's entry (summarise), and
		// the order of a map would make that choice differ from run to run.
		for _, fn := range slices.SortedFunc(maps.Keys(changed), func(a, b *ssa.Function) int {
			return cmp.Or(cmp.Compare(a.Pos(), b.Pos()), strings.Compare(a.String(), b.String()))
		}) {
			for _, caller := range append(st.callGraph()[fn], invokers[fn]...) {
				if !seen[caller] {
					seen[caller] = true
					scan = append(scan, caller)
				}
			}
		}
	}
	out := make([]*Call, len(order))
	for i, call := range order {
		out[i] = found[call]
	}
	return out
}

// summarise records, for the functions that pass a parameter's context to one of calls with
// nothing else bounding it, or that are the context-free form of an API, what they pass on;
// it returns the functions that gained an entry.
func (st *state) summarise(calls []*Call) map[*ssa.Function]bool {
	changed := make(map[*ssa.Function]bool)
	for _, c := range calls {
		t := c.Timeout
		index, instead, fn := t.Param, "", c.Instr.Parent()
		switch {
		case c.Stream:
			continue
		case t.Status == Unknown && t.kept != nil:
			index, fn = t.keptParam, t.kept
			if t.captured && index < len(fn.Params) && st.untilDone(c.Instr, fn.Params[index]) {
				continue // (a goroutine's loop that runs until the context it captured ends)
			}
		case c.Via != nil && c.Via.Kept && c.Func != nil && c.Func.Pkg() != st.pass.Pkg:
			// A context another package keeps, handed on: what it is kept for is that
			// package's, whose constructor the caller should see (x/oauth2's TokenSource), not
			// a client constructor several packages up that keeps it somewhere inside for
			// purposes of its own (Cloud Storage's NewClient finding its credentials).
			continue
		case t.Status == Unknown && t.Param >= 0:
			if t.Param < len(fn.Params) && st.untilDone(c.Instr, fn.Params[t.Param]) {
				continue // a loop's lifetime: a caller's deadline would end the loop, not bound a round
			}
		case t.Status == Unbounded && t.Context.Kind == NoContext && c.Contract.Kind == ContextFree:
			index, instead = -1, st.sibling(c.Instr.Parent())
		case t.Status == Unbounded && t.Context.Kind.Contextless() && flow.ContextInScope(fn) == nil &&
			(t.ownClient(st.pass.Pkg) && t.Client.Kind != Default && t.Client.Kind != Constructor && !flow.Within(flow.Root(fn), t.Client.Pos) ||
				c.Via.Unboundable()):
			// A request without a context through the client the package keeps, built
			// without a timeout, in a function that has no context to give it: its callers
			// cannot bound it either (a translator's Translate(text, src, dest)).
			index = -1
		default:
			continue
		}
		if st.seams == nil {
			st.seams = st.stores.Seams(st.made)
		}
		if _, ok := fn.Object().(*types.Func); !ok && !st.seams[fn] || fn.Synthetic != "" {
			continue
		}
		// One entry per parameter; a client that alone decides (a request sent without a
		// context) says more than one that decides with the caller's context.
		at := slices.IndexFunc(st.summaries[fn], func(p Passed) bool { return p.Index == index })
		recv := 0
		if fn == c.Instr.Parent() {
			recv = st.receiverFrom(c)
		}
		if at >= 0 && (st.summaries[fn][at].With == nil || t.with != nil) {
			if st.summaries[fn][at].RecvFrom != recv && st.summaries[fn][at].RecvFrom != 0 {
				st.summaries[fn][at].RecvFrom = 0 // calls through other receivers too
				changed[fn] = true
			}
			continue
		}
		if at >= 0 && st.summaries[fn][at].RecvFrom != recv {
			recv = 0 // (replacing an entry: its calls went through another receiver)
		}
		p := Passed{Index: index, RecvFrom: recv, Request: t.Request, Kind: c.Kind, Name: c.Name, Instead: instead, Streams: c.Streams || c.Via != nil && c.Via.Streams, Body: -1, Kept: t.kept != nil && !t.captured || c.Via != nil && c.Via.Kept, AtOnce: c.AtOnce}
		switch {
		case c.Kind != HTTP || p.Kept:
		case c.Via == nil:
			if !t.captured { // (a closure's parameters are not its maker's)
				p.Body = st.bodyParam(c.Instr)
			}
		case c.Via.Body >= 0 && c.Via.Body < len(c.Instr.Common().Args):
			// A body handed on to a helper that makes the request from it.
			if bp, ok := flow.Unwrap(c.Instr.Common().Args[c.Via.Body]).(*ssa.Parameter); ok && bp.Parent() == fn {
				p.Body = slices.Index(fn.Params, bp)
			}
		}
		if t.ParamClient != "" {
			p.Client, p.Context, p.src, p.With = t.ParamClient, t.Context.Kind, t.Context, t.with
		}
		switch {
		case t.Client != nil:
			p.Transport = t.Client.Transport
		case c.Via != nil:
			p.Transport = c.Via.Transport
		}
		if t.Owned(st.pass.Pkg) || index < 0 && t.ownClient(st.pass.Pkg) {
			p.Owned = t.Client.OwnedAs(st.pass.Fset)
		}
		if c.Via != nil {
			// Passed on to a function that passes it on: the remote call is its.
			p.Callee, p.At = c.Via.Callee, c.Via.At
			if p.Owned == "" {
				p.Owned = c.Via.Owned
			}
		} else {
			pos := st.pass.Fset.Position(c.Pos())
			p.Callee, p.At = flow.Name(c.Func, st.pass.Pkg), fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)
		}
		if at >= 0 {
			st.summaries[fn][at] = p
		} else {
			st.summaries[fn] = append(st.summaries[fn], p)
		}
		changed[fn] = true
	}
	return changed
}

// exportFacts exports the parameter facts (paramFact) of the package's functions that pass a context on, and
// the result facts (resultFact) of those that return a client they build without a timeout.
func (st *state) exportFacts() {
	for _, fn := range st.funcs {
		if ps := st.summaries[fn]; len(ps) > 0 && fn.Object() != nil { // (a seam's literal: this package's alone)
			st.pass.ExportObjectFact(fn.Object(), &paramFact{Params: ps})
		}
		if rs := st.builds(fn); len(rs) > 0 {
			st.pass.ExportObjectFact(fn.Object(), &resultFact{Results: rs})
		}
		if f := st.madeRequest(fn); f != nil {
			st.pass.ExportObjectFact(fn.Object(), f)
		}
		if f := st.maker(fn); f != nil {
			st.pass.ExportObjectFact(fn.Object(), f)
		}
	}
}

// resultFact marks a function that returns a client or dialer it builds without a timeout (a
// constructor): its callers in other packages follow the client to it, as they follow
// cleanhttp.DefaultClient, and read what they set on it themselves. It also marks one that
// returns an http.Transport with a ResponseHeaderTimeout (Built.Bounded), which bounds the
// clients made with it as the same transport made in place does.
type resultFact struct {
	Results []Built
}

// Built is one result of a function that is a client or dialer without a timeout.
type Built struct {
	Index int    // the result
	Type  string // what it is: "http.Client"
	From  string // how it is built, as the report says: "the http.Client made at client.go:12"
	// Bounded, for an http.Transport, names what bounds the wait for an answer through it
	// ("http.Transport.ResponseHeaderTimeout"); From is then empty.
	Bounded string
	// Transport, for a client, names the ResponseHeaderTimeout of the transport it sends
	// through, when it has one (Origin.Transport).
	Transport string `json:",omitempty"`
	// ForAPI is set for a client made for the package's own API (APIClient), reported there.
	ForAPI bool `json:",omitempty"`
	// Passes is set when the result is the function's parameter Param, a client the caller
	// gives (an instrumenting helper that wraps its transport, a default in place of nil),
	// on which it sets no timeout: what the caller gives decides; From and Bounded are then
	// empty.
	Passes bool `json:",omitempty"`
	Param  int  `json:",omitempty"`
}

func (*resultFact) AFact() {}

func (f *resultFact) String() string {
	var parts []string
	for _, b := range f.Results {
		if b.Bounded != "" {
			parts = append(parts, fmt.Sprintf("an %s with a %s (result %d)", b.Type, strings.TrimPrefix(b.Bounded, b.Type+"."), b.Index))
			continue
		}
		if b.Passes {
			parts = append(parts, fmt.Sprintf("the %s of parameter %d (result %d)", b.Type, b.Param, b.Index))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (result %d)", b.From, b.Index))
	}
	return "returns " + strings.Join(parts, ", ")
}

// builds returns the results of fn that are clients or dialers it makes (a composite literal,
// a constructor's) without a timeout; not the caller's, nor one it keeps elsewhere too.
func (st *state) builds(fn *ssa.Function) []Built {
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Synthetic != "" {
		return nil
	}
	var out []Built
	results := obj.Signature().Results()
	for i := 0; i < results.Len(); i++ {
		if typeis.Named(results.At(i).Type(), knowledge.HTTPTransport.Pkg, knowledge.HTTPTransport.Name) {
			// A transport it makes with a ResponseHeaderTimeout (NewDeadlineTransport).
			w, v := st.walker(fn), none
			for r := range returned(fn, i) {
				v = join(v, w.obj(r, nil, knowledge.HTTPTransport))
			}
			if v.k == vBounded {
				out = append(out, Built{Index: i, Type: knowledge.HTTPTransport.Display, Bounded: v.by})
			}
			continue
		}
		w, v := st.walker(fn), none
		t := objTypeOf(results.At(i).Type())
		byValue := t == nil
		if byValue {
			// A client returned by value (return http.Client{Transport: tr}, nil): what the
			// literals it returns set on it; a copy, so the caller's changes are its own.
			if t = valueObjType(results.At(i).Type()); t == nil {
				continue
			}
			origin := &Origin{Kind: Local, Type: t.Display, Field: t.Setting}
			if r, ok := w.returnedLiterals(fn, i, t, origin, 0); ok && r.k == vUnbounded {
				v = verdict{k: vUnbounded, origin: origin}
			}
		} else {
			if j := returnedParam(fn, i); j >= 0 {
				if s := w.fieldsSet(fn.Params[j], t, nil, 0); s.k == vUnbounded {
					out = append(out, Built{Index: i, Type: t.Display, Passes: true, Param: j})
				}
				continue
			}
			for r := range returned(fn, i) {
				v = join(v, w.obj(r, nil, t))
			}
		}
		if v.k != vUnbounded || v.origin == nil || v.origin.Kind != Local && v.origin.Kind != Constructor {
			continue
		}
		if !byValue && !st.freshResults(fn, i) {
			continue // a client it keeps too (a package variable): the caller's changes are shared
		}
		out = append(out, Built{Index: i, Type: t.Display, From: v.origin.describe(st.pass.Fset, token.NoPos), Transport: v.origin.Transport, ForAPI: st.handed[fn]})
	}
	return out
}

// objTypeNamed returns the client or dialer type whose display name is name, or nil.
func objTypeNamed(name string) *knowledge.ClientType {
	for _, o := range knowledge.ClientTypes {
		if o.Display == name {
			return o
		}
	}
	return nil
}

// valueObjType returns the client or dialer type of t when t is one by value (http.Client).
func valueObjType(t types.Type) *knowledge.ClientType {
	if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
		return nil
	}
	return objTypeOf(types.NewPointer(t))
}

// objTypeOf returns the client or dialer type t points to, or nil.
func objTypeOf(t types.Type) *knowledge.ClientType {
	for _, o := range knowledge.ClientTypes {
		if _, isPtr := t.Underlying().(*types.Pointer); isPtr && typeis.Named(t, o.Pkg, o.Name) {
			return o
		}
	}
	return nil
}

// resultOf returns what the fact of the imported function fn says of its result idx, when it
// is a value of type t: built without a timeout (a constructor's client), or, with Bounded
// set, made with one (an http.Transport with a ResponseHeaderTimeout).
func (st *state) resultOf(fn *types.Func, idx int, t *knowledge.ClientType) (Built, bool) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == st.pass.Pkg {
		return Built{}, false
	}
	if f := importFact(st.pass, st.results, fn); f != nil {
		for _, b := range f.Results {
			if b.Index == idx && b.Type == t.Display {
				return b, true
			}
		}
	}
	return Built{}, false
}

// constructed reports whether the fact of the imported function fn says its result idx is a
// client or dialer of type t built without a timeout, and returns what the fact says.
func (st *state) constructed(fn *types.Func, idx int, t *knowledge.ClientType) (Built, bool) {
	b, ok := st.resultOf(fn, idx, t)
	return b, ok && b.Bounded == "" && !b.Passes
}

// returnedParam returns the index of the parameter of fn that every return gives back as its
// result idx, itself or (a phi) in place of a default it chooses when the parameter is nil
// (if c == nil { c = http.DefaultClient }); -1 when there is none.
func returnedParam(fn *ssa.Function, idx int) int {
	var param *ssa.Parameter
	for ret := range flow.Returns(fn) {
		if idx >= len(ret.Results) {
			return -1
		}
		p := paramOrDefault(ret.Results[idx])
		if p == nil || param != nil && p != param {
			return -1
		}
		param = p
	}
	if param == nil {
		return -1
	}
	return slices.Index(fn.Params, param)
}

// paramOrDefault returns the parameter v is, directly or as an edge of a phi whose other edges
// are not parameters (the defaults chosen in its place), or nil.
func paramOrDefault(v ssa.Value) *ssa.Parameter {
	switch v := v.(type) {
	case *ssa.Parameter:
		return v
	case *ssa.Phi:
		var param *ssa.Parameter
		for _, e := range v.Edges {
			if p, ok := e.(*ssa.Parameter); ok {
				if param != nil && p != param {
					return nil
				}
				param = p
			}
		}
		return param
	}
	return nil
}

// importFact returns the fact of type F of the imported function fn (nil when it has none),
// remembered in memo.
func importFact[F any, PF interface {
	*F
	analysis.Fact
}](pass *analysis.Pass, memo map[*types.Func]PF, fn *types.Func) PF {
	fn = fn.Origin()
	f, seen := memo[fn]
	if !seen {
		f = new(F)
		if !pass.ImportObjectFact(fn, f) {
			f = nil
		}
		memo[fn] = f
	}
	return f
}

// passed returns what the function callee passes on to remote calls: from this package's
// summaries, or from the fact of an imported function.
func (st *state) passed(callee *ssa.Function) []Passed {
	if ps, ok := st.summaries[callee]; ok {
		return ps
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == st.pass.Pkg {
		return nil
	}
	if f := importFact(st.pass, st.imported, obj); f != nil && len(f.Params) > 0 {
		return f.Params
	}
	if i := knowledge.KeptContext(flow.ID(obj)); i >= 0 {
		// A token source of a library whose code the model cannot follow, said to keep its
		// context for its token requests.
		return []Passed{{Index: i, Kind: HTTP, Name: "http.Client.Do", Callee: "Client.Do", Kept: true, Body: -1}}
	}
	return nil
}

// receiverFrom returns one more than the parameter of c's function that c's remote call is
// made on (its receiver: the parameter, or what a method called on the parameter returned,
// tx from db.BeginTx(ctx)); for a call of a function that passes its context on, the
// parameter its RecvFrom argument is. 0 when it is none of them.
func (st *state) receiverFrom(c *Call) int {
	fn := c.Instr.Parent()
	var v ssa.Value
	if c.Via != nil {
		_, args := st.calleeOf(c.Instr)
		if c.Via.RecvFrom == 0 || c.Via.RecvFrom > len(args) {
			return 0
		}
		v = args[c.Via.RecvFrom-1]
	} else if callee := flow.Callee(c.Instr.Common()); callee != nil {
		v = flow.NewSite(c.Instr.Common(), callee).Recv
	}
	for range 4 {
		if v == nil {
			return 0
		}
		v = flow.Unwrap(v)
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple
		}
		switch x := v.(type) {
		case *ssa.Parameter:
			if i := slices.Index(fn.Params, x); i >= 0 {
				return i + 1
			}
			return 0
		case *ssa.Call:
			// tx, err := db.BeginTx(ctx): a handle a library's method of the parameter
			// returns. (A method of the package's may return something else for nil: a
			// default database.)
			m := flow.Callee(x.Common())
			if m == nil || m.Pkg() == nil || m.Pkg() == st.pass.Pkg {
				return 0
			}
			v = flow.NewSite(x.Common(), m).Recv
		default:
			return 0
		}
	}
	return 0
}

// calleeOf returns the function call runs and its arguments as that function's parameters
// count them: its static callee, the one function a package variable it calls holds
// (flow.Stores.Seam), or, for a call of a method of an interface the package
// declares, the package's one implementation outside tests (a generic one's origin), when the
// package puts it behind the interface itself, with the receiver first. Nil when there is
// none or more than one.
func (st *state) calleeOf(call ssa.CallInstruction) (*ssa.Function, []ssa.Value) {
	common := call.Common()
	if seam := st.stores.Seam(common, st.made); seam != nil {
		return seam, common.Args // a package variable that holds one function: a seam for tests
	}
	if callee := common.StaticCallee(); callee != nil || !common.IsInvoke() {
		return flow.Generic(callee), common.Args
	}
	inTest := testcode.At(st.pass, call.Pos())
	impl := flow.Sole(st.impls.Of(common), func(m *ssa.Function) bool { return !inTest && testcode.At(st.pass, m.Pos()) }) // (a test's fake)
	named, _ := types.Unalias(common.Value.Type()).(*types.Named)
	if impl == nil || named == nil || !st.stores.Fills(named, impl) {
		return nil, nil // (a value the package never puts there: its callers')
	}
	return impl, append([]ssa.Value{common.Value}, common.Args...)
}

// invokers returns, for each implementation that calleeOf resolves a call of an interface
// method to, the functions making such calls: the callers the call graph does not hold.
func (st *state) invokers(funcs []*ssa.Function) map[*ssa.Function][]*ssa.Function {
	out := make(map[*ssa.Function][]*ssa.Function)
	for _, fn := range funcs {
		for call := range flow.Calls(fn) {
			if call.Common().IsInvoke() {
				if impl, _ := st.calleeOf(call); impl != nil && !slices.Contains(out[impl], fn) {
					out[impl] = append(out[impl], fn)
				}
			}
		}
	}
	return out
}

// via returns the remote call that call makes through a function with a paramFact, or nil.
func (st *state) via(call ssa.CallInstruction) *Call {
	common := call.Common()
	callee, args := st.calleeOf(call)
	if callee == nil {
		return nil
	}
	invoke := common.IsInvoke()
	fn, _ := callee.Object().(*types.Func)
	if fn == nil {
		// A seam's literal: named after the variable that holds it (doHTTPRequest), where
		// the variable is declared.
		load, ok := common.Value.(*ssa.UnOp)
		if !ok {
			return nil
		}
		g, ok := load.X.(*ssa.Global)
		if !ok || g.Object() == nil {
			return nil
		}
		fn = types.NewFunc(g.Object().Pos(), g.Object().Pkg(), g.Object().Name(), callee.Signature)
	}
	var best *Call
	for _, p := range st.passed(callee) {
		if p.Index >= len(args) || invoke && p.Kind == HTTP && p.Client == "" {
			continue // (through an interface, the implementation's own client: where it was built is not seen)
		}
		if p.RecvFrom > 0 && p.RecvFrom <= len(args) && flow.IsNil(args[p.RecvFrom-1]) {
			continue // no database, client or connection given: the remote calls are not made
		}
		if i, field := knowledge.RefreshedToken(flow.ID(fn)); p.Kept && i >= 0 && i < len(args) && unset(args[i], field, call) {
			continue // a token that cannot be refreshed: the kept context is never sent
		}
		w := st.walker(call.Parent())
		var v verdict
		switch {
		case p.Index < 0:
			v = noContext()
		case p.Client != "":
			// The caller's client, through which the function sends a request without a
			// deadline: where the client is built decides.
			t := objTypeNamed(p.Client)
			if t == nil {
				continue
			}
			v = w.obj(args[p.Index], nil, t)
			switch {
			case p.With != nil && p.With.Index < len(args) && p.With.Request:
				v = either(v, w.req(args[p.With.Index], nil))
			case p.With != nil && p.With.Index < len(args):
				v = either(v, w.ctx(args[p.With.Index], nil))
			case p.With != nil:
				continue
			case v.k == vUnbounded || v.k == vParam:
				v.src = p.src
				v.src.Kind = p.Context
			}
		case p.Request:
			v = w.req(args[p.Index], nil)
		default:
			v = w.ctx(args[p.Index], nil)
		}
		if p.Index >= 0 && p.Client == "" && v.k == vUnbounded && p.Kind == HTTP && fn != nil {
			// A request or context without a deadline sent through the client the receiver
			// was built with (NewClient(&http.Client{Timeout: t}) wrapping it): that client decides.
			switch w.builtWith(flow.NewSite(common, fn).Recv) {
			case vBounded:
				v = bounded("the client it was built with")
			case vUnbounded:
				if !st.walker(call.Parent()).builtWithOwned(flow.NewSite(common, fn).Recv, p.Owned) {
					p.Owned = "" // the caller's client, not the package's default
				}
			}
		}
		if p.Kind == SQL && st.embeddedSQL(call.Pos()) {
			continue // sqlx's Get over an embedded database: nothing leaves the process
		}
		if p.Kind == SQL && v.k != vBounded && sessionBounded(call) {
			v = bounded(sessionTimeout)
		}
		c := &Call{Instr: call, Func: fn, Kind: p.Kind, Name: p.Name, Via: &p, Timeout: v.timeout()}
		// The Docker daemon of this machine, not loopback when the call has it reach a registry.
		c.Daemon = fn != nil && fn.Pkg() != nil && knowledge.LocalDaemon(fn.Pkg().Path())
		c.Loopback = c.Daemon && !knowledge.RegistryCall(fn.Pkg().Path(), fn.Name())
		if p.Kind == HTTP {
			// The response the function hands back read as a stream here, or a body not in
			// memory handed to it to send.
			c.Streams = streamedIn(call, st.streamField) || p.Body >= 0 && p.Body < len(args) && streamBody(args[p.Body])
			// A request the caller gives, made there with its body in memory.
			atOnce := p.AtOnce || p.Request && p.Index >= 0 && st.requestAtOnce(call.Parent(), args[p.Index])
			c.AtOnce = atOnce && !c.Streams
			c.Timeout = c.Timeout.byTransport(c)
		}
		st.setContract(c, callee.Name())
		if best == nil || c.Timeout.Status == Unbounded && best.Timeout.Status != Unbounded {
			best = c
		}
	}
	return best
}

// unset reports whether v is a struct made here by a literal (&oauth2.Token{AccessToken: tok})
// that sets no field named field (or sets it to ""), and is used only to be handed to call.
func unset(v ssa.Value, field string, call ssa.CallInstruction) bool {
	a, ok := flow.Unwrap(v).(*ssa.Alloc)
	if !ok || a.Comment != "complit" || a.Referrers() == nil {
		return false
	}
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if fv := flow.FieldVar(r); fv != nil && fv.Name() == field {
				for _, rr := range *r.Referrers() {
					if st, ok := rr.(*ssa.Store); ok {
						if s, ok := flow.StringConst(st.Val); !ok || s != "" {
							return false
						}
					}
				}
			}
		case ssa.CallInstruction:
			if r != call {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// bodyParam returns the index among its function's parameters of the body the request sent by
// call (Client.Do(req)) is made with, when the one request maker in the function
// (http.NewRequest, NewRequestWithContext: see makers) makes it from that parameter; -1
// otherwise.
func (st *state) bodyParam(call ssa.CallInstruction) int {
	args := call.Common().Args
	if len(args) == 0 {
		return -1
	}
	fn := call.Parent()
	var makers []*ssa.CallCommon
	ok := st.walker(fn).makers(args[len(args)-1], nil, 0, func(c *ssa.CallCommon, f *frame) {
		if f == nil {
			makers = append(makers, c)
		}
	})
	if !ok || len(makers) != 1 {
		return -1
	}
	if p, ok := flow.Unwrap(st.requestArg(makers[0], 2)).(*ssa.Parameter); ok && p.Parent() == fn {
		return slices.Index(fn.Params, p)
	}
	return -1
}

// requestFact marks a function that returns a request it makes without a context on every
// path (http.NewRequest): its callers in other packages send a request with no deadline of
// its own, as if they had made it so.
type requestFact struct {
	Index int
}

func (*requestFact) AFact() {}

func (f *requestFact) String() string {
	return fmt.Sprintf("returns a request without a context (result %d)", f.Index)
}

// madeRequest returns the requestFact of fn, an exported function of the package, or nil.
func (st *state) madeRequest(fn *ssa.Function) *requestFact {
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Synthetic != "" || !obj.Exported() {
		return nil
	}
	results := obj.Signature().Results()
	for i := 0; i < results.Len(); i++ {
		if !typeis.Request(results.At(i).Type()) {
			continue
		}
		w, v := st.walker(fn), none
		for r := range returned(fn, i) {
			v = join(v, w.req(r, nil))
		}
		if v.k == vUnbounded && v.src.Kind == NewRequest && v.src.Name == "" {
			return &requestFact{Index: i}
		}
	}
	return nil
}

// untilDone reports whether call is made in a loop of its function that runs until the
// context p ends (a case <-ctx.Done() or a test of ctx.Err() from which it can leave): p is the
// loop's lifetime (a service's Run(ctx)), which a caller's deadline would end as a whole; it
// bounds no one round, and the caller who gives it no deadline is not the cause.
func (st *state) untilDone(call ssa.CallInstruction, p *ssa.Parameter) bool {
	if !typeis.Context(p.Type()) {
		return false
	}
	fn := call.Parent()
	ls, ok := st.loops[fn]
	if !ok {
		if st.loops == nil {
			st.loops = make(map[*ssa.Function][]*loops.Loop)
		}
		ls = loops.Of(fn)
		st.loops[fn] = ls
	}
	for _, l := range ls {
		if !l.Contains(call.Block()) {
			continue
		}
		for _, b := range l.Blocks(fn) {
			// (The header leaves the loop by its own edges: CanExit does not count them.)
			leaves := l.CanExit(b) || b == l.Header && slices.ContainsFunc(b.Succs, func(s *ssa.BasicBlock) bool { return !l.Contains(s) || l.CanExit(s) })
			if leaves && slices.ContainsFunc(b.Instrs, func(instr ssa.Instruction) bool { return watchesDone(instr, p) }) {
				return true
			}
		}
	}
	return false
}

// watchesDone reports whether instr waits for, or asks about, the end of context p or of one
// derived from it: a select with a case on its Done(), a receive from it, or a call of its Err().
func watchesDone(instr ssa.Instruction, p *ssa.Parameter) bool {
	ofP := func(v ssa.Value) bool {
		c, ok := flow.Unwrap(v).(*ssa.Call)
		if !ok || !c.Call.IsInvoke() || !typeis.Context(c.Call.Value.Type()) || c.Call.Method.Name() != "Done" && c.Call.Method.Name() != "Err" {
			return false
		}
		found := false
		flow.Backward(c.Call.Value, 16, func(x ssa.Value) bool {
			found = found || x == ssa.Value(p)
			return !found
		})
		return found
	}
	switch x := instr.(type) {
	case *ssa.Select:
		return slices.ContainsFunc(x.States, func(s *ssa.SelectState) bool { return s.Dir == types.RecvOnly && ofP(s.Chan) })
	case *ssa.UnOp:
		return x.Op == token.ARROW && ofP(x.X)
	case *ssa.Call:
		return ofP(x)
	}
	return false
}

// made reports whether v is made in a test file (a test's stand-in stored in a seam).
func (st *state) made(v ssa.Value) bool { return testcode.Made(st.pass, v) }
