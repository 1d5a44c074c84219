package retryscope

import (
	"fmt"
	"go/ast"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
)

func helperName(fn *types.Func) string {
	if fn == nil {
		return ""
	}
	id := flow.ID(fn)
	if id.Recv != "" {
		return fmt.Sprintf("%s.%s.%s", id.Pkg, id.Recv, id.Name)
	}
	return id.Pkg + "." + id.Name
}

// callScopes adds the Callback and Client scopes of the calls in fn.
func (st *state) callScopes(fn *ssa.Function) {
	for call := range flow.Calls(fn) {
		if s := st.iteratorScope(call); s != nil {
			s.at, s.Site = fn, call
			st.add(s)
			continue
		}
		if hc := st.helperCall(call); hc != nil {
			s := st.callbackScope(hc)
			s.at, s.Site = fn, call
			st.setCallSyntax(s, call)
			st.add(s)
			continue
		}
		if s := st.clientScope(call); s != nil {
			s.at, s.Site = fn, call
			st.setCallSyntax(s, call)
			st.add(s)
			continue
		}
		for _, s := range st.handedClientScopes(call) {
			s.at, s.Site = fn, call
			st.setCallSyntax(s, call)
			st.add(s)
		}
	}
}

// callbackFunc returns the function with a body that a callback value runs: a function
// literal, a function of this package, or the method behind a method value.
func callbackFunc(v ssa.Value) *ssa.Function {
	fn := targetFunc(v)
	if fn == nil || len(fn.Blocks) == 0 {
		return nil
	}
	return fn
}

// targetFunc returns the function a function value runs, with a body or not (a function of
// another package): a function, a closure's function, or the method behind a method value.
func targetFunc(v ssa.Value) *ssa.Function {
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil {
		return nil
	}
	if fn.Synthetic != "" { // a method value's wrapper: find the method it calls
		for c := range flow.Calls(fn) {
			if callee := c.Common().StaticCallee(); callee != nil {
				fn = callee
			}
		}
	}
	return fn
}

// clientScope returns the Client scope of a call through a self-retrying client, or nil.
func (st *state) clientScope(call ssa.CallInstruction) *Scope {
	fn := flow.Callee(call.Common())
	if fn == nil {
		return nil
	}
	// A method of an interface kept in a field of the package, which the package fills with
	// values of one concrete type (a retrying client behind a seam for tests): that type's.
	var recv ssa.Value
	if call.Common().IsInvoke() {
		if m, x := st.stores.Concrete(call.Common().Value, st.pass.Pkg, fn.Name(), func(v ssa.Value) bool { return testcode.Made(st.pass, v) }); m != nil {
			fn, recv = m, x
		}
	}
	if fn.Pkg() == st.pass.Pkg {
		return nil // a client's own code calling itself: its loops are hand-written scopes
	}
	if s := st.grpcClientScope(call, fn); s != nil {
		return s
	}
	for lib, e := range clientEntries(fn) {
		c := st.newSite(call, fn)
		if recv != nil {
			c.Recv = recv
		}
		if lib.when != nil && !lib.when(c, e) {
			continue
		}
		s := &Scope{Kind: Client, Func: fn, Helper: helperName(fn)}
		lib.summarise(c, e, s)
		return s
	}
	return nil
}

// clientEntries yields the client table entries that list fn, with their libraries.
func clientEntries(fn *types.Func) iter.Seq2[*library, *entry] {
	return func(yield func(*library, *entry) bool) {
		id := flow.ID(fn)
		for _, lib := range libraries {
			if !lib.has(id.Pkg) {
				continue
			}
			for i := range lib.Clients {
				e := &lib.Clients[i]
				if e.Recv != "*" && e.Recv != id.Recv || len(e.Names) > 0 && !slices.Contains(e.Names, id.Name) {
					continue
				}
				if !yield(lib, e) {
					return
				}
			}
		}
	}
}

// ClientAPI reports whether fn is a method of a client that retries on its own, as the
// library tables list them (whatever the client's settings). In the client's own package its
// calls are the library's API, not Client scopes.
func ClientAPI(fn *types.Func) bool {
	for range clientEntries(fn) {
		return true
	}
	return false
}

// setCallSyntax fills in the syntax of a scope made by a call: the call expression and the
// statement holding it.
func (st *state) setCallSyntax(s *Scope, call ssa.CallInstruction) {
	cur, ok := st.calls[call.Pos()]
	if !ok {
		cur, ok = st.calls[call.Common().Pos()] // go and defer statements: their call's (
	}
	if !ok {
		return
	}
	s.Node = cur.Node()
	if stmt, ok := syntax.EnclosingStmt(cur); ok {
		s.Stmt = stmt.Node().(ast.Stmt)
	}
}
