package remote

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Contexts: whether a context.Context, or the context of an *http.Request, carries a deadline.

// ctx evaluates a context.Context value.
func (w *walker) ctx(v ssa.Value, f *frame) verdict {
	v, r, ok := w.value(v, f, roleCtx, nil)
	if !ok {
		return r
	}
	if g := w.st.ownGlobal(v); g != nil && !w.st.stores.Taken[g] {
		// A package variable (var Ctx = context.TODO()): what the package's production code
		// stores there, its default, which another package may replace but most users run.
		var stored []ssa.Value
		for _, s := range w.st.stores.Globals[g] {
			if !testcode.Made(w.st.pass, s) {
				stored = append(stored, s)
			}
		}
		if len(stored) > 0 {
			return known(joinEach(stored, func(s ssa.Value) verdict { return w.ctx(s, nil) }))
		}
	}
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		switch x := ld.X.(type) {
		case *ssa.FieldAddr:
			return w.ctxField(x)
		case *ssa.FreeVar:
			if f == nil {
				// A closure's context, captured by address: what is stored in the variable
				// where the closure is made (go func() { ctx, cancel :=
				// context.WithTimeout(ctx, d); ...; wg.Go(func() { send(ctx) }) }).
				return w.byRef(x, func(s ssa.Value) verdict { return w.ctx(s, nil) })
			}
		}
	}
	if by := timedCancel(v); by != "" {
		return bounded(by)
	}
	return w.follow(v, f, false, w.ctxCall, w.ctx)
}

// timedCancel names what bounds a context made by context.WithCancel whose cancel function a
// timer calls: time.AfterFunc(d, cancel), or a goroutine started here that waits for a timer
// (time.After, NewTimer, Tick) and calls it (a per-request deadline that spares the stream
// read afterwards); "" otherwise.
func timedCancel(v ssa.Value) string {
	e, ok := v.(*ssa.Extract)
	if !ok || e.Index != 0 {
		return ""
	}
	call, ok := e.Tuple.(*ssa.Call)
	if !ok || call.Referrers() == nil {
		return ""
	}
	if id := flow.ID(flow.Callee(call.Common())); id.Pkg != knowledge.ContextPath || id.Recv != "" || id.Name != "WithCancel" && id.Name != "WithCancelCause" {
		return ""
	}
	for _, r := range *call.Referrers() {
		cancel, ok := r.(*ssa.Extract)
		if !ok || cancel.Index != 1 || cancel.Referrers() == nil {
			continue
		}
		uses := slices.Clone(*cancel.Referrers())
		for i := 0; i < len(uses) && i < 32; i++ {
			switch u := uses[i].(type) {
			case *ssa.ChangeType:
				if u.Referrers() != nil {
					uses = append(uses, *u.Referrers()...) // a context.CancelFunc given as a func()
				}
			case *ssa.Call:
				if id := flow.ID(flow.Callee(u.Common())); id.Pkg == "time" && id.Recv == "" && id.Name == "AfterFunc" && len(u.Call.Args) == 2 && flow.Unwrap(u.Call.Args[1]) == ssa.Value(cancel) {
					return "time.AfterFunc, which cancels its context"
				}
			case *ssa.MakeClosure:
				if timerCalls(u, cancel) {
					return "a goroutine that cancels its context when a timer fires"
				}
			case *ssa.Store:
				// Captured by reference: the variable it is stored in is what a closure binds.
				if a, ok := u.Addr.(*ssa.Alloc); ok && u.Val == ssa.Value(cancel) && a.Referrers() != nil {
					for _, ar := range *a.Referrers() {
						if mc, ok := ar.(*ssa.MakeClosure); ok && timerCalls(mc, a) {
							return "a goroutine that cancels its context when a timer fires"
						}
					}
				}
			}
		}
	}
	return ""
}

// timerCalls reports whether mc, a closure started with go, waits for a timer and calls the
// function bound to it as cancel (by value, or the variable holding it).
func timerCalls(mc *ssa.MakeClosure, cancel ssa.Value) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	i := slices.Index(mc.Bindings, cancel)
	if !ok || i < 0 || i >= len(fn.FreeVars) || mc.Referrers() == nil {
		return false
	}
	started := slices.ContainsFunc(*mc.Referrers(), func(r ssa.Instruction) bool {
		g, ok := r.(*ssa.Go)
		return ok && g.Call.Value == ssa.Value(mc)
	})
	if !started {
		return false
	}
	timer, calls := false, false
	for c := range flow.Calls(fn) {
		if id := flow.ID(flow.Callee(c.Common())); id.Pkg == "time" && id.Recv == "" && (id.Name == "After" || id.Name == "NewTimer" || id.Name == "Tick") {
			timer = true
		}
		callee := c.Common().Value
		if ld, ok := callee.(*ssa.UnOp); ok && ld.Op == token.MUL {
			callee = ld.X // cancel captured by reference: (*fv)()
		}
		if callee == ssa.Value(fn.FreeVars[i]) {
			calls = true
		}
	}
	return timer && calls
}

// ctxField evaluates a context kept in a struct field by what the package's production code
// stores there (context.WithoutCancel(ctx) in a constructor detaches every later request from
// its caller's deadline; a token source keeps the context its constructor is given, whose
// callers then decide); unknown when another package may store one too (an exported field)
// or nothing here does.
func (w *walker) ctxField(fa *ssa.FieldAddr) verdict {
	fv := flow.FieldVar(fa)
	if fv == nil || fv.Pkg() != w.st.pass.Pkg || fv.Exported() || fv.Embedded() {
		return unknown
	}
	return known(joinEach(w.st.prodStores(fv), func(s ssa.Value) verdict {
		if p, ok := flow.Unwrap(s).(*ssa.Parameter); ok && p.Parent() != w.top && p.Parent().Pkg == w.st.pkg && typeis.Context(p.Type()) {
			// Kept from a parameter of another function (a constructor): that function's
			// callers bound the call (Timeout.kept).
			return verdict{k: vParam, param: slices.Index(p.Parent().Params, p), kept: p.Parent()}
		}
		return w.ctx(s, nil)
	}))
}

// carried evaluates the value a context carries (context.WithValue(ctx, key, v)) as the
// client the context's users send through: an *http.Client has no other use in a context, and
// the libraries that take one from there (x/oauth2's HTTPClient key, go-oidc) send their
// requests through it, so its Timeout bounds them whatever the context's deadline.
func (w *walker) carried(v ssa.Value, f *frame) verdict {
	v = flow.Unwrap(v)
	if v == nil || !typeis.Named(v.Type(), knowledge.HTTPClient.Pkg, knowledge.HTTPClient.Name) {
		return unknown
	}
	r := w.obj(v, f, knowledge.HTTPClient)
	if r.k == vBounded {
		r.by = "the Timeout of the http.Client the context carries"
	}
	return r
}

func (w *walker) ctxCall(c *ssa.CallCommon, idx int, f *frame) verdict {
	fn := flow.Callee(c)
	id := flow.ID(fn)
	if id.Pkg == knowledge.ContextPath && id.Recv == "" {
		switch {
		case id.Name == "Background":
			return unbounded(Background, c.Pos())
		case id.Name == "TODO":
			return unbounded(TODO, c.Pos())
		case id.Name == "WithoutCancel":
			// Detached from its parent: no deadline, whatever the parent's.
			return unbounded(WithoutCancel, c.Pos())
		case id.Name == "WithTimeout" || id.Name == "WithTimeoutCause":
			return boundedFor("context."+id.Name, flow.NewSite(c, fn).Arg(1))
		case deadlineMakers[id.Name]:
			return bounded("context." + id.Name)
		}
	}
	if id == (flow.FuncID{Pkg: knowledge.ContextPath, Name: "WithValue"}) {
		if r := w.carried(flow.NewSite(c, fn).Arg(2), f); r.k == vBounded {
			return r
		}
	}
	if i, ok := knowledge.ContextWrappers[id]; ok {
		return w.ctx(flow.NewSite(c, fn).Arg(i), f)
	}
	if id == (flow.FuncID{Pkg: knowledge.HTTPPath, Recv: "Request", Name: "Context"}) && len(c.Args) == 1 {
		return w.req(c.Args[0], f)
	}
	return w.results(c, idx, f, w.ctx)
}

// req evaluates the context of an *http.Request value.
func (w *walker) req(v ssa.Value, f *frame) verdict {
	v, r, ok := w.value(v, f, roleReq, nil)
	if !ok {
		return r
	}
	if a, ok := v.(*ssa.Alloc); ok && a.Comment == "complit" && typeis.Named(a.Type(), knowledge.HTTPPath, "Request") {
		return unbounded(RequestLiteral, a.Pos())
	}
	// A struct that holds the request (type request struct{ *retryablehttp.Request }, a send
	// helper's envelope) is judged by the request it holds: what is stored into that field of
	// one the function makes, or the holder itself when it is handed in.
	if a, ok := v.(*ssa.Alloc); ok {
		if i, ok := requestField(a.Type()); ok {
			return known(joinEach(flow.FieldStores(a, i), func(s ssa.Value) verdict { return w.req(s, f) }))
		}
	}
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if fa, ok := ld.X.(*ssa.FieldAddr); ok {
			if i, ok := requestField(fa.X.Type()); ok && i == fa.Field {
				return w.req(fa.X, f)
			}
		}
	}
	if ctx, ok := restySetOn(v); ok {
		return w.ctx(ctx, f) // req.SetContext(ctx) as a statement of its own
	}
	return w.follow(v, f, true, w.reqCall, w.req)
}

// requestField returns the index of the one field of the struct t points to that holds a
// request (*http.Request or go-retryablehttp's *Request).
func requestField(t types.Type) (int, bool) {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return 0, false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return 0, false
	}
	idx := -1
	for i := range st.NumFields() {
		ft := st.Field(i).Type()
		if typeis.Request(ft) {
			if idx >= 0 {
				return 0, false
			}
			idx = i
		}
	}
	return idx, idx >= 0
}

func (w *walker) reqCall(c *ssa.CallCommon, idx int, f *frame) verdict {
	if r, ok := w.restyReqCall(c, f); ok {
		return r
	}
	id := flow.ID(flow.Callee(c))
	if m, ok := knowledge.RequestMakers[id]; ok {
		if m.Ctx == knowledge.NoArg {
			v := unbounded(NewRequest, c.Pos())
			if m.Display != NewRequest.String() {
				v.src.Name = m.Display // another library's maker: the fix names its own
			}
			return v
		}
		if m.Ctx < len(c.Args) {
			return w.ctx(c.Args[m.Ctx], f)
		}
	}
	if cp, ok := knowledge.RequestCopies[id]; ok {
		switch {
		case cp.Ctx == knowledge.NoArg && cp.From < len(c.Args):
			return w.req(c.Args[cp.From], f)
		case cp.Ctx != knowledge.NoArg && cp.Ctx < len(c.Args):
			return w.ctx(c.Args[cp.Ctx], f)
		}
	}
	if id == (flow.FuncID{Pkg: "net/http/httptest", Name: "NewRequest"}) {
		return unbounded(TestRequest, c.Pos())
	}
	// A request made without a context by a function of another package
	// (r.GetHTTPRequest(base, method), which calls http.NewRequest).
	if fn := flow.Callee(c); fn != nil && fn.Pkg() != nil && fn.Pkg() != w.st.pass.Pkg {
		var rf requestFact
		if w.st.pass.ImportObjectFact(fn, &rf) && rf.Index == idx {
			v := unbounded(NewRequest, c.Pos())
			v.src.Name = flow.Name(fn, w.st.pass.Pkg)
			return v
		}
	}
	return w.results(c, idx, f, w.req)
}
