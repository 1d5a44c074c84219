package remote

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// resty v2: a request (c.R().SetHeader(...).SetContext(ctx).Post(url)) is bounded by its
// client's timeout (SetTimeout) or the context it is given; the client and the request are
// built by chains of setters that return the value they are called on.

// restyMethod returns the name of the method of resty v2's type recv that c calls, when its
// result is of type res ("Request", "Client"); "" otherwise.
func restyMethod(c *ssa.CallCommon, recv, res string) string {
	fn := c.StaticCallee()
	if fn == nil || c.IsInvoke() || fn.Signature.Recv() == nil || len(c.Args) == 0 {
		return ""
	}
	pkg := knowledge.RestyClient.Pkg
	if !typeis.Named(fn.Signature.Recv().Type(), pkg, recv) {
		return ""
	}
	if r := fn.Signature.Results(); r.Len() != 1 || !typeis.Named(r.At(0).Type(), pkg, res) {
		return ""
	}
	return fn.Name()
}

// restyChain calls visit with each setter of the chain that ends at req (c.R().SetBody(b)...),
// from the last back to the first, until visit returns true, and returns the client the chain
// starts at, or nil when it does not start at one (or visit stopped it).
func restyChain(req ssa.Value, visit func(call *ssa.Call, name string) bool) ssa.Value {
	// The calls of the package's functions the walk went into, by callee: a client that is
	// such a function's parameter is the argument that call passes. A helper entered from a
	// callback's parameter has other callers too: its parameters say nothing here.
	entered := make(map[*ssa.Function]*ssa.Call)
	helpers := make(map[*ssa.Function]bool)
	client := func(c ssa.Value) ssa.Value {
		for range 16 {
			p, ok := flow.Unwrap(c).(*ssa.Parameter)
			if !ok {
				return c
			}
			if helpers[p.Parent()] {
				return nil
			}
			call := entered[p.Parent()]
			if call == nil {
				return c // the sending function's own parameter
			}
			i := slices.Index(p.Parent().Params, p)
			if i < 0 || i >= len(call.Call.Args) {
				return nil
			}
			c = call.Call.Args[i]
		}
		return nil
	}
	for range 64 {
		x := flow.Unwrap(req)
		if p, ok := x.(*ssa.Parameter); ok {
			// A callback's request: the one the helper that calls it passes
			// (c.do(ctx, func(r *resty.Request) ...), and fn(c.newRequest(ctx)) in do).
			if args := flow.CallbackArgs(p); len(args) == 1 {
				if arg, ok := args[0].(ssa.Instruction); ok {
					helpers[arg.Parent()] = true
				}
				req = args[0]
				continue
			}
			return nil
		}
		if phi, ok := x.(*ssa.Phi); ok {
			// r = r.SetMultipartField(...) in a loop: the request the loop starts from.
			var from []ssa.Value
			for _, e := range phi.Edges {
				c, ok := flow.Unwrap(e).(*ssa.Call)
				if !ok || len(c.Call.Args) == 0 || flow.Unwrap(c.Call.Args[0]) != phi {
					from = append(from, e)
					continue
				}
				// The setter the loop applies is part of the chain too.
				if name := restyMethod(&c.Call, "Request", "Request"); name == "" || visit != nil && visit(c, name) {
					return nil
				}
			}
			if len(from) != 1 {
				return nil
			}
			req = from[0]
			continue
		}
		call, ok := x.(*ssa.Call)
		if !ok {
			return nil
		}
		if restyMethod(&call.Call, "Client", "Request") != "" {
			return client(call.Call.Args[0])
		}
		name := restyMethod(&call.Call, "Request", "Request")
		if name == "" {
			// A function of the package that makes the request (m.request(ctx)).
			if rets := flow.ReturnedBy(call); len(rets) == 1 {
				entered[call.Call.StaticCallee()] = call
				req = rets[0]
				continue
			}
			return nil
		}
		if visit != nil && visit(call, name) {
			return nil
		}
		req = call.Call.Args[0]
	}
	return nil
}

// RestyClientOf returns the client a resty request was made from (the receiver of c.R() or
// c.NewRequest() at the start of its chain of setters), or nil when the model cannot tell.
func RestyClientOf(req ssa.Value) ssa.Value { return restyChain(req, nil) }

// restyReqCall evaluates the context of the resty request a call of resty's returns: the
// context a SetContext in the chain gives it, or none when the chain starts at the client.
func (w *walker) restyReqCall(c *ssa.CallCommon, f *frame) (verdict, bool) {
	switch name := restyMethod(c, "Request", "Request"); name {
	case "":
	case "SetContext":
		if len(c.Args) < 2 {
			return unknown, true
		}
		return w.ctx(c.Args[1], f), true
	default:
		return w.req(c.Args[0], f), true
	}
	if restyMethod(c, "Client", "Request") != "" {
		return noContext(), true // c.R(): a request without a context, until one is set
	}
	return verdict{}, false
}

// restySetOn returns the context a statement of its own gives the resty request v
// (req.SetContext(ctx), its result dropped), when one does.
func restySetOn(v ssa.Value) (ssa.Value, bool) {
	if !typeis.Named(v.Type(), knowledge.RestyClient.Pkg, "Request") {
		return nil, false
	}
	// Through the setters chained on it (req.SetHeader(k, v).SetContext(ctx)).
	queue := []ssa.Value{v}
	for i := 0; i < len(queue) && i < 64; i++ {
		x := queue[i]
		if x.Referrers() == nil {
			continue
		}
		for _, r := range *x.Referrers() {
			call, ok := r.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != x {
				continue
			}
			switch restyMethod(&call.Call, "Request", "Request") {
			case "SetContext":
				if len(call.Call.Args) < 2 {
					return nil, false
				}
				return call.Call.Args[1], true
			case "":
			default:
				queue = append(queue, call)
			}
		}
	}
	return nil, false
}

// chainSet evaluates a call of a method of the client type t on a value of it, for fieldsSet:
// what the method does to the timeout (setterEffect), else, for a setter returning the value,
// what is set on its result; ok is false for a type without setters.
func (w *walker) chainSet(c *ssa.CallCommon, t *knowledge.ClientType, origin *Origin, depth int, result ssa.Value) (verdict, bool) {
	fn := c.StaticCallee()
	if fn == nil || t.Setters == nil && t.Opaque == nil {
		return verdict{}, false
	}
	if v, ok := setterEffect(c, t); ok {
		return v, true
	}
	if t.Chain && result != nil && chainResult(fn, t) {
		return w.fieldsSet(result, t, origin, depth), true // (a chain is walked forward: no cycle)
	}
	return verdict{k: vUnbounded}, true
}

// setterEffect says what a call of a method of the client type t does to its timeout: bounds
// it (a setter given anything but a zero constant), or leaves it unknown (a setter given a zero
// constant, written out on purpose; a method that hands over a part the model does not follow;
// a hook that gives each request its context); ok is false for any other method.
func setterEffect(c *ssa.CallCommon, t *knowledge.ClientType) (verdict, bool) {
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) == 0 {
		return verdict{}, false
	}
	switch name := fn.Name(); {
	case slices.Contains(t.Setters, name):
		arg := c.Args[len(c.Args)-1]
		if _, isConst := arg.(*ssa.Const); isConst && flow.IsZero(arg) {
			return unknown, true // SetTimeout(0) written out: no timeout on purpose
		}
		if !flow.IsZero(arg) {
			return boundedFor(t.Display+"."+name, arg), true
		}
	case slices.Contains(t.Opaque, name):
		return unknown, true
	case slices.Contains(t.Hooks, name) && setsContext(c.Args[len(c.Args)-1]):
		return unknown, true // a hook that gives each request its context
	}
	return verdict{}, false
}

// chainResult reports whether fn, a method of t, returns a t (the value it is called on).
func chainResult(fn *ssa.Function, t *knowledge.ClientType) bool {
	r := fn.Signature.Results()
	return r.Len() == 1 && typeis.Named(r.At(0).Type(), t.Pkg, t.Name) && isPointer(r.At(0).Type())
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// chainRecv returns the receiver of c when it calls a method of the client type t that
// returns the value it is called on; nil otherwise.
func chainRecv(c *ssa.CallCommon, t *knowledge.ClientType) ssa.Value {
	fn := c.StaticCallee()
	if !t.Chain || fn == nil || c.IsInvoke() || fn.Signature.Recv() == nil || len(c.Args) == 0 ||
		!typeis.Named(fn.Signature.Recv().Type(), t.Pkg, t.Name) || !chainResult(fn, t) {
		return nil
	}
	return c.Args[0]
}

// restyClient evaluates the client a resty request goes through; unknown when the model
// cannot tell which.
func (w *walker) restyClient(req ssa.Value) verdict {
	c := RestyClientOf(req)
	if c == nil {
		return unknown
	}
	return w.obj(c, nil, knowledge.RestyClient)
}

// restyUpload reports whether a resty request, by its chain of setters, streams: it uploads a
// body that is a reader not held in memory (a file, the caller's io.Reader), or files and
// readers of a multipart form, or downloads its answer to a file or leaves it unread for the
// caller (SetOutput, SetDoNotParseResponse). A client Timeout would cut such a transfer.
func restyUpload(req ssa.Value) bool {
	streams := false
	restyChain(req, func(call *ssa.Call, name string) bool {
		args := call.Call.Args
		switch {
		case name == "SetDoNotParseResponse":
			parse, isConst := flow.BoolConst(flow.Unwrap(args[len(args)-1]))
			streams = !isConst || parse
		case slices.Contains(knowledge.RestyStreams, name):
			streams = true
		case name == "SetBody" && len(args) == 2:
			body := flow.Unwrap(args[1])
			if mi, ok := body.(*ssa.MakeInterface); ok {
				body = flow.Unwrap(mi.X)
			}
			streams = isReader(body.Type()) && !inMemoryBody(body)
		}
		return streams
	})
	return streams
}

// isReader reports whether t has io.Reader's Read method.
func isReader(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Read")
	fn, ok := obj.(*types.Func)
	return ok && fn.Signature().Params().Len() == 1 && fn.Signature().Results().Len() == 2
}

// setsContext reports whether hook, a function value handed to a client, gives the requests it
// is handed a context (r.SetContext(ctx)).
func setsContext(hook ssa.Value) bool {
	var fn *ssa.Function
	switch h := flow.Unwrap(hook).(type) {
	case *ssa.Function:
		fn = h
	case *ssa.MakeClosure:
		fn, _ = h.Fn.(*ssa.Function)
	}
	if fn == nil {
		return true // a hook the model cannot read may set one
	}
	for c := range flow.Calls(fn) {
		if restyMethod(c.Common(), "Request", "Request") == "SetContext" {
			return true
		}
	}
	return false
}
