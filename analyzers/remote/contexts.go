package remote

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Contexts: whether a context.Context, or the context of an *http.Request, carries a deadline.

// ctx evaluates a context.Context value.
func (w *walker) ctx(v ssa.Value, f *frame) verdict {
	if v == nil {
		return unknown
	}
	v = flow.Unwrap(v)
	if r, ok := w.enter(v, f, roleCtx, nil); !ok {
		return r
	}
	switch v := v.(type) {
	case *ssa.Call:
		return w.ctxCall(v.Common(), 0, f)
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			return w.ctxCall(c.Common(), v.Index, f)
		}
	case *ssa.Phi:
		return w.edges(v, f, w.ctx)
	case *ssa.Parameter:
		return w.param(v, f, false, w.ctx)
	case *ssa.UnOp:
		if a, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			return w.stored(a, f, w.ctx)
		}
	}
	return unknown
}

func (w *walker) ctxCall(c *ssa.CallCommon, idx int, f *frame) verdict {
	fn := flow.Callee(c)
	id := flow.ID(fn)
	if id.Pkg == ctxPkg && id.Recv == "" {
		switch {
		case id.Name == "Background":
			return unbounded(Background, c.Pos())
		case id.Name == "TODO":
			return unbounded(TODO, c.Pos())
		case id.Name == "WithoutCancel":
			// Detached from its parent: no deadline, whatever the parent's.
			return unbounded(WithoutCancel, c.Pos())
		case deadlineMakers[id.Name]:
			return bounded("context." + id.Name)
		}
	}
	if i, ok := ctxWrappers[id]; ok {
		return w.ctx(flow.NewSite(c, fn).Arg(i), f)
	}
	if id == (flow.FuncID{Pkg: httpPkg, Recv: "Request", Name: "Context"}) && len(c.Args) == 1 {
		return w.req(c.Args[0], f)
	}
	return w.results(c, idx, f, w.ctx)
}

// req evaluates the context of an *http.Request value.
func (w *walker) req(v ssa.Value, f *frame) verdict {
	if v == nil {
		return unknown
	}
	v = flow.Unwrap(v)
	if r, ok := w.enter(v, f, roleReq, nil); !ok {
		return r
	}
	switch v := v.(type) {
	case *ssa.Call:
		return w.reqCall(v.Common(), 0, f)
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			return w.reqCall(c.Common(), v.Index, f)
		}
	case *ssa.Phi:
		return w.edges(v, f, w.req)
	case *ssa.Parameter:
		return w.param(v, f, true, w.req)
	case *ssa.Alloc:
		if v.Comment == "complit" && typeis.Named(v.Type(), httpPkg, "Request") {
			return unbounded(RequestLiteral, v.Pos())
		}
	case *ssa.UnOp:
		if a, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			return w.stored(a, f, w.req)
		}
	}
	return unknown
}

func (w *walker) reqCall(c *ssa.CallCommon, idx int, f *frame) verdict {
	id := flow.ID(flow.Callee(c))
	switch id {
	case flow.FuncID{Pkg: httpPkg, Name: "NewRequest"}:
		return unbounded(NewRequest, c.Pos())
	case flow.FuncID{Pkg: "net/http/httptest", Name: "NewRequest"}:
		return unbounded(TestRequest, c.Pos())
	case flow.FuncID{Pkg: httpPkg, Name: "NewRequestWithContext"}:
		return w.ctx(c.Args[0], f)
	case flow.FuncID{Pkg: httpPkg, Recv: "Request", Name: "WithContext"},
		flow.FuncID{Pkg: httpPkg, Recv: "Request", Name: "Clone"}:
		if len(c.Args) == 2 {
			return w.ctx(c.Args[1], f)
		}
	}
	return w.results(c, idx, f, w.req)
}
