package remote

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// streamed reports whether the response of the HTTP call is read as a stream: in its function
// (see streamedIn), or, when the function returns it (a sendRequest helper), by one of the
// package's callers of that function.
func (st *state) streamed(call ssa.CallInstruction) bool {
	if streamedIn(call, st.streamField) || asksForStream(call) {
		return true
	}
	v, ok := call.(ssa.Value)
	if !ok || v.Referrers() == nil || !returnsResponse(call.Parent(), responses(v)) {
		return false
	}
	for _, caller := range st.callGraph()[call.Parent()] {
		for c := range flow.Calls(caller) {
			if c.Common().StaticCallee() == call.Parent() && streamedIn(c, st.streamField) {
				return true
			}
		}
	}
	return false
}

// asksForStream reports whether the request the HTTP call sends asks for an event stream: its
// header is set, in the request's own function, to Accept text/event-stream. The answer is a
// stream that lasts as long as the server sends (Server-Sent Events), whoever reads it.
func asksForStream(call ssa.CallInstruction) bool {
	for _, a := range call.Common().Args {
		if !typeis.Request(a.Type()) || flow.Unwrap(a).Referrers() == nil {
			continue
		}
		for _, r := range *flow.Unwrap(a).Referrers() {
			fa, ok := r.(*ssa.FieldAddr)
			if !ok || flow.FieldVar(fa) == nil || flow.FieldVar(fa).Name() != "Header" {
				continue
			}
			for _, l := range *fa.Referrers() {
				load, ok := l.(*ssa.UnOp)
				if !ok || load.Referrers() == nil {
					continue
				}
				for _, u := range *load.Referrers() {
					if c, ok := u.(ssa.CallInstruction); ok {
						if k, v, ok := flow.HeaderSet(c); ok && knowledge.AsksForStream(k, v) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// returnsResponse reports whether fn returns one of resps as its first result.
func returnsResponse(fn *ssa.Function, resps []ssa.Value) bool {
	for ret := range flow.Returns(fn) {
		if len(ret.Results) > 0 && slices.Contains(resps, flow.Unwrap(ret.Results[0])) {
			return true
		}
	}
	return false
}

// streamedIn reports whether the response of the call is read as a stream in its function:
// its Body, wrapped for reading piece by piece (knowledge.StreamWrapper) or not, is read
// (knowledge.StreamRead) in a loop that does not send the request again, or copied whole into
// a writer that is not a buffer in memory (a file, a pipe: knowledge.StreamCopy); or kept,
// wrapped or not, in a field that fields says the package reads in a loop (a Stream struct
// returned with its bufio.Reader, whose Recv reads a line at a time).
func streamedIn(call ssa.CallInstruction, fields func(*types.Var) bool) bool {
	v, ok := call.(ssa.Value)
	if !ok || v.Referrers() == nil {
		return false
	}
	inReadLoop := readLoops(call)
	resps := responses(v)
	for i := 0; i < len(resps) && i < 8; i++ {
		for _, r := range *resps[i].Referrers() {
			// resp = track(resp): a function of the package that hands the response back.
			if c, ok := r.(*ssa.Call); ok && c.Call.StaticCallee() != nil && c.Call.StaticCallee().Pkg == c.Parent().Pkg &&
				typeis.Named(pointee(c.Type()), knowledge.HTTPPath, "Response") && c.Referrers() != nil && !slices.Contains(resps, ssa.Value(c)) {
				resps = append(resps, c)
			}
		}
	}
	for _, resp := range resps {
		for _, rr := range *resp.Referrers() {
			fa, ok := rr.(*ssa.FieldAddr)
			if !ok || flow.FieldVar(fa) == nil || flow.FieldVar(fa).Name() != "Body" || fa.Referrers() == nil {
				continue
			}
			for _, l := range *fa.Referrers() {
				if load, ok := l.(*ssa.UnOp); ok && readInLoop(load, inReadLoop, fields, 0) {
					return true
				}
			}
		}
	}
	return false
}

// connReadInLoop reports whether the connection that call, a dial, returns is read in a loop
// after it (conn.Read, a bufio.Reader over it, io.Copy from it into a connection or a file).
func connReadInLoop(call ssa.CallInstruction) bool {
	v, ok := call.(ssa.Value)
	if !ok || v.Referrers() == nil {
		return false
	}
	in := readLoops(call)
	for _, conn := range responses(v) {
		if readInLoop(conn, in, nil, 0) {
			return true
		}
	}
	return false
}

// readLoops returns a test of whether a block is in a loop that reads what call returned: a
// loop of another function, or of call's own that does not contain call (a loop that makes a
// new request each round reads no stream).
func readLoops(call ssa.CallInstruction) func(*ssa.BasicBlock) bool {
	of := make(map[*ssa.Function][]*loops.Loop)
	return func(b *ssa.BasicBlock) bool {
		fn := b.Parent()
		ls, ok := of[fn]
		if !ok {
			ls = loops.Of(fn)
			of[fn] = ls
		}
		for _, l := range ls {
			if l.Contains(b) && (fn != call.Parent() || !l.Contains(call.Block())) {
				return true
			}
		}
		return false
	}
}

// sentAtOnce reports whether the request of the HTTP call s (of id) has no body or one held in
// memory (inMemoryBody): written at once, so the transport's wait for the answer starts.
func (st *state) sentAtOnce(fn *ssa.Function, s flow.Site, id flow.FuncID) bool {
	if id.Pkg == knowledge.RestyClient.Pkg {
		return id.Name == "Get" || id.Name == "Head"
	}
	switch id.Name {
	case "Get", "Head", "PostForm":
		return true
	case "Post":
		return inMemoryBody(s.Arg(2))
	case "Do":
		return st.requestAtOnce(fn, s.Arg(0))
	}
	return false
}

// requestAtOnce reports whether every request maker (http.NewRequest and the like) of req,
// a request used in fn, makes it with a body in memory.
func (st *state) requestAtOnce(fn *ssa.Function, req ssa.Value) bool {
	var bodies []ssa.Value
	ok := st.walker(fn).makers(req, nil, 0, func(c *ssa.CallCommon, f *frame) {
		bodies = append(bodies, st.requestArg(c, 2))
	})
	return ok && len(bodies) > 0 && !slices.ContainsFunc(bodies, func(b ssa.Value) bool { return b == nil || !inMemoryBody(b) })
}

// responses returns the values that hold the *http.Response the call v returns: its first
// result, and the loads of a variable it is stored in (one a deferred closure captures).
func responses(v ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, r := range *v.Referrers() {
		resp, ok := r.(*ssa.Extract)
		if !ok || resp.Index != 0 || resp.Referrers() == nil {
			continue
		}
		out = append(out, resp)
		for _, rr := range *resp.Referrers() {
			switch rr := rr.(type) {
			case *ssa.Store:
				if a, ok := rr.Addr.(*ssa.Alloc); ok && rr.Val == resp {
					out = append(out, loads(a)...)
					for _, c := range closures(a) {
						out = append(out, loads(c)...)
					}
				}
			case *ssa.MakeClosure:
				for _, c := range captured(rr, resp) {
					if c.Referrers() != nil {
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

// loads returns the loads of the variable at addr.
func loads(addr ssa.Value) []ssa.Value {
	var out []ssa.Value
	if addr.Referrers() == nil {
		return nil
	}
	for _, r := range *addr.Referrers() {
		if load, ok := r.(*ssa.UnOp); ok && load.Referrers() != nil {
			out = append(out, load)
		}
	}
	return out
}

// closures returns the free variables through which closures capture the variable a.
func closures(a *ssa.Alloc) []ssa.Value {
	var out []ssa.Value
	for _, r := range *a.Referrers() {
		if mc, ok := r.(*ssa.MakeClosure); ok {
			out = append(out, captured(mc, a)...)
		}
	}
	return out
}

// captured returns the free variables of the closure mc bound to v.
func captured(mc *ssa.MakeClosure, v ssa.Value) []ssa.Value {
	var out []ssa.Value
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return nil
	}
	for i, b := range mc.Bindings {
		if b == v && i < len(fn.FreeVars) {
			out = append(out, fn.FreeVars[i])
		}
	}
	return out
}

// readInLoop reports whether the reader x, or a reader wrapping it, is read in a block for
// which inLoop holds.
func readInLoop(x ssa.Value, inLoop func(*ssa.BasicBlock) bool, fields func(*types.Var) bool, depth int) bool {
	if depth > 5 || x.Referrers() == nil {
		return false
	}
	for _, r := range *x.Referrers() {
		switch r := r.(type) {
		case *ssa.ChangeInterface:
			if readInLoop(r, inLoop, fields, depth+1) {
				return true
			}
		case *ssa.MakeInterface:
			if readInLoop(r, inLoop, fields, depth+1) {
				return true
			}
		case ssa.CallInstruction:
			c := r.Common()
			fn := flow.Callee(c)
			if fn == nil {
				continue
			}
			recv := c.Value
			if !c.IsInvoke() && len(c.Args) > 0 {
				recv = c.Args[0]
			}
			if recv == x && knowledge.StreamRead(fn) && inLoop(r.Block()) {
				return true
			}
			if src := knowledge.StreamCopy(fn); src >= 0 && src < len(c.Args) && c.Args[src] == x && !inMemory(c.Args[0]) {
				return true
			}
			if w, ok := r.(ssa.Value); ok && knowledge.StreamWrapper(fn) && readInLoop(w, inLoop, fields, depth+1) {
				return true
			}
			// Handed to a function of the package (newRowReader(resp.Body)): what it does
			// with its parameter.
			if callee := c.StaticCallee(); callee != nil && callee.Pkg == r.Parent().Pkg && len(callee.Blocks) > 0 {
				for i, a := range c.Args {
					if a == x && i < len(callee.Params) && readInLoop(callee.Params[i], inLoop, fields, depth+1) {
						return true
					}
				}
			}
		case *ssa.Store:
			if fa, ok := r.Addr.(*ssa.FieldAddr); ok && r.Val == x && fields != nil && flow.FieldVar(fa) != nil && fields(flow.FieldVar(fa)) {
				return true // kept for a reader of the package's that reads it in a loop
			}
		}
	}
	return false
}

// inMemory reports whether w, the writer a body is copied into, keeps it in memory (a
// *bytes.Buffer, a *strings.Builder) or drops it (io.Discard), or is a writer the caller may
// pass in place of a value to decode into: reading a whole answer, draining one, or a helper's
// option, is not a transfer that a deadline would cut.
func inMemory(w ssa.Value) bool {
	w = flow.Unwrap(w)
	if ex, ok := w.(*ssa.Extract); ok {
		if _, asserted := ex.Tuple.(*ssa.TypeAssert); asserted {
			// if w, ok := v.(io.Writer); ok { io.Copy(w, resp.Body) }: a writer the caller may
			// pass instead of a value to decode into, an option of a helper that decodes.
			return true
		}
	}
	if mi, ok := w.(*ssa.MakeInterface); ok {
		w = mi.X
	}
	return knowledge.MemoryWriter(w.Type()) || memoryVar(w)
}

// memoryVar reports whether v loads a package variable that drops what it is given or is an
// empty body (knowledge.MemoryVar).
func memoryVar(v ssa.Value) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok {
		return false
	}
	g, ok := ld.X.(*ssa.Global)
	return ok && g.Pkg != nil && knowledge.MemoryVar(g.Pkg.Pkg.Path(), g.Name())
}

// streamBody reports whether a request body is read while the request is sent: not held in
// memory (see inMemoryBody), and made here, not handed in by the caller (whose own callers
// decide what it is).
func streamBody(v ssa.Value) bool {
	if _, given := flow.Unwrap(v).(*ssa.Parameter); given {
		return false
	}
	return !inMemoryBody(v)
}

// inMemoryBody reports whether a request body is held in memory (nil, http.NoBody, a
// *bytes.Reader, *bytes.Buffer or *strings.Reader): sent at once. Any other reader (a file, a
// pipe, the caller's io.Reader) is read while the request is sent, for as long as it lasts.
func inMemoryBody(v ssa.Value) bool {
	v = flow.Unwrap(v)
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = flow.Unwrap(mi.X)
	}
	if flow.IsNil(v) {
		return true
	}
	return knowledge.MemoryReader(v.Type()) || memoryVar(v)
}

// streamField reports whether the package reads what it keeps in field fv as a stream: a
// function loads the field and reads it, wrapped or not, in a loop (s.reader.ReadBytes('\n')
// in a Recv called for each event).
func (st *state) streamField(fv *types.Var) bool {
	if st.streamFields == nil {
		st.streamFields = make(map[*types.Var]bool)
		of := make(map[*ssa.Function][]*loops.Loop)
		inLoop := func(b *ssa.BasicBlock) bool {
			fn := b.Parent()
			ls, ok := of[fn]
			if !ok {
				ls = loops.Of(fn)
				of[fn] = ls
			}
			return slices.ContainsFunc(ls, func(l *loops.Loop) bool { return l.Contains(b) })
		}
		for _, fn := range st.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					load, ok := instr.(*ssa.UnOp)
					if !ok || load.Op != token.MUL {
						continue
					}
					if fa, ok := load.X.(*ssa.FieldAddr); ok && flow.FieldVar(fa) != nil && readInLoop(load, inLoop, nil, 0) {
						st.streamFields[flow.FieldVar(fa)] = true
					}
				}
			}
		}
	}
	return st.streamFields[fv]
}
