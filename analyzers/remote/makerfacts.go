package remote

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Requests made in one package and sent in another: an API client's PrepareRequest(ctx, path,
// method, body, ...) returns the request its generated API methods hand to CallAPI(req).

// makerFact marks an exported function that returns, as its first result, a request it makes
// on every path with a method it is given: in another package a call of it is the request's
// maker (see makers), its arguments the method, URL and body.
type makerFact struct {
	Method, URL, Body int // parameter indices, the receiver first; URL and Body -1 when no one parameter is
}

func (*makerFact) AFact() {}

func (f *makerFact) String() string {
	return fmt.Sprintf("makes the request it returns with parameters %d (method), %d (URL), %d (body)", f.Method, f.URL, f.Body)
}

// maker returns the makerFact of fn, an exported function of the package, or nil.
func (st *state) maker(fn *ssa.Function) *makerFact {
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Synthetic != "" || !obj.Exported() || obj.Signature().Results().Len() == 0 ||
		!typeis.Request(obj.Signature().Results().At(0).Type()) {
		return nil
	}
	var f *makerFact
	all, w := true, st.walker(fn)
	for r := range returned(fn, 0) {
		all = all && w.makers(r, nil, 0, func(c *ssa.CallCommon, fr *frame) {
			if fr != nil {
				all = false // made in a callee: its arguments are the callee's
				return
			}
			m := makerFact{paramIndex(fn, st.requestArg(c, 0)), -1, paramIndex(fn, st.requestArg(c, 2))}
			if u := st.requestArg(c, 1); u != nil {
				m.URL = max(urlParam(fn, u), -1)
			}
			switch {
			case f == nil:
				f = &m
			case m.Method != f.Method:
				all = false
			default:
				if m.URL != f.URL {
					f.URL = -1
				}
				if m.Body != f.Body {
					f.Body = -1
				}
			}
		})
	}
	if !all || f == nil || f.Method < 0 {
		return nil
	}
	return f
}

// paramIndex returns the index of the parameter of fn that v is (looking through
// conversions), or -1.
func paramIndex(fn *ssa.Function, v ssa.Value) int {
	if p, ok := flow.Unwrap(v).(*ssa.Parameter); ok && p.Parent() == fn {
		return slices.Index(fn.Params, p)
	}
	return -1
}

// makerOf returns the makerFact of the function of another package that c calls, or nil.
func (st *state) makerOf(c *ssa.CallCommon) *makerFact {
	if st == nil || c.IsInvoke() {
		return nil
	}
	fn := flow.Callee(c)
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == st.pass.Pkg {
		return nil
	}
	if st.makerFacts == nil {
		st.makerFacts = make(map[*types.Func]*makerFact)
	}
	return importFact(st.pass, st.makerFacts, fn)
}

// Handed returns the HTTP request v that call hands to a function of another package to
// send, judged as a send by call: its method and URL as constants say them, where it is made.
func (r *Result) Handed(call ssa.CallInstruction, v ssa.Value) *Send {
	if r == nil || r.st == nil {
		return nil
	}
	w := r.st.walker(call.Parent())
	s := &Send{Instr: call}
	w.request(s, v)
	s.Method = strings.ToUpper(w.method(s.Request))
	return s
}

// CopiedParam returns, for a call of a function of the package that returns a request it is
// given or a copy of it (newRequest := *r; newRequest.Body = ...; return &newRequest; or
// req.Clone(ctx) on a later attempt, itself or through such a function), the argument
// copied; nil otherwise.
func CopiedParam(c *ssa.CallCommon) ssa.Value { return copiedParam(c, 0) }

func copiedParam(c *ssa.CallCommon, depth int) ssa.Value {
	fn := c.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() == 0 || !typeis.Request(fn.Signature.Results().At(0).Type()) || depth > 3 {
		return nil
	}
	idx := -1
	for r := range returned(fn, 0) {
		p := copyOf(r, depth)
		if p == nil || p.Parent() != fn || idx >= 0 && slices.Index(fn.Params, p) != idx {
			return nil
		}
		idx = slices.Index(fn.Params, p)
	}
	if idx < 0 || idx >= len(c.Args) {
		return nil
	}
	return c.Args[idx]
}

// copyOf returns the parameter whose request v is, or is a shallow copy of (the address of a
// local the parameter's struct is copied into, a library's copy: req.Clone(ctx), a copy a
// function of the package returns), or nil.
func copyOf(v ssa.Value, depth int) *ssa.Parameter {
	v = flow.Unwrap(v)
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		v = ex.Tuple
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		return x
	case *ssa.Call:
		if from, ok := copiedRequest(x.Common()); ok {
			return copyOf(from, depth)
		}
		if from := copiedParam(x.Common(), depth+1); from != nil {
			return copyOf(from, depth+1)
		}
	case *ssa.Alloc:
		for _, s := range flow.Stored(x) {
			if u, ok := s.(*ssa.UnOp); ok && u.Op == token.MUL {
				if p, ok := u.X.(*ssa.Parameter); ok {
					return p
				}
			}
		}
	}
	return nil
}
