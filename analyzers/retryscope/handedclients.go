package retryscope

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// Self-retrying clients handed to another package: an SDK that makes an *http.Client with
// retryablehttp's StandardClient and gives it to a generated API client
// (api.WithHTTPClient(rc.StandardClient())) sends every request through those retries,
// though no request is sent in the package that configured them. The handing call is the
// scope's site; its settings are the ones the package made.

// handedClientScopes returns the Client scopes of a call that hands another package an
// *http.Client made by retryablehttp's StandardClient in this package (directly, or stored in
// a field or variable on the way): one for each such client the package has not handed before.
func (st *state) handedClientScopes(call ssa.CallInstruction) []*Scope {
	if s := st.handedResty(call); s != nil {
		return []*Scope{s}
	}
	if !slices.ContainsFunc(call.Common().Args, func(a ssa.Value) bool { return handsClient(a.Type()) }) {
		return nil // (checked first: this runs for every call of the package)
	}
	fn := flow.Callee(call.Common())
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == st.pass.Pkg || testcode.At(st.pass, call.Pos()) {
		return nil
	}
	switch fn.Pkg().Path() {
	case "net/http", knowledge.RetryableHTTPPath:
		return nil // its own calls (Client.Do): a client scope of their own
	}
	var out []*Scope
	c := st.newSite(call, fn)
	for _, arg := range call.Common().Args {
		if !handsClient(arg.Type()) {
			continue
		}
		for _, made := range c.calls(arg) {
			std := flow.Callee(made.Common())
			id := flow.ID(std)
			if id.Pkg != knowledge.RetryableHTTPPath || id.Name != "StandardClient" || len(made.Call.Args) == 0 || st.handed[made] {
				continue
			}
			st.handed[made] = true
			s := &Scope{Kind: Client, Func: std, Helper: helperName(std), Handed: true}
			base := &site{Site: flow.Site{Recv: made.Call.Args[0]}, call: made, stores: st.stores, pass: st.pass}
			asRetryableHTTP(base, s)
			out = append(out, s)
		}
	}
	return out
}

// handsClient reports whether a value of type t may be an *http.Client: the type itself, or
// an interface it implements whose methods send an *http.Request (a generated client's
// HttpRequestDoer), net/http's Client found through that request type.
func handsClient(t types.Type) bool {
	if typeis.Named(pointee(t), "net/http", "Client") {
		return true
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for m := range iface.Methods() {
		for p := range m.Signature().Params().Variables() {
			if !typeis.Named(p.Type(), "net/http", "Request") {
				continue
			}
			req, ok := types.Unalias(pointee(p.Type())).(*types.Named)
			if !ok {
				continue
			}
			if client, ok := req.Obj().Pkg().Scope().Lookup("Client").(*types.TypeName); ok {
				return types.Implements(types.NewPointer(client.Type()), iface)
			}
		}
	}
	return false
}

// handedResty returns the Client scope of a call of another package's function that sends
// requests through the resty client it is handed (per the remote model's parameter fact:
// api.CallCreateFolder(c.http, req)), when that client retries (SetRetryCount): each request
// the function sends is retried as if the call sent it. The scope is the call's own, as a
// call of the client's methods is; nil otherwise.
func (st *state) handedResty(call ssa.CallInstruction) *Scope {
	rc := st.rem.Of(call)
	if rc == nil || rc.Kind != remote.HTTP || rc.Via == nil || rc.Via.Client != knowledge.RestyClient.Display || rc.Func == nil {
		return nil
	}
	args := call.Common().Args
	if call.Common().IsInvoke() || rc.Via.Index < 0 || rc.Via.Index >= len(args) || testcode.At(st.pass, call.Pos()) {
		return nil
	}
	rl := libraryOf(knowledge.Resty)
	e := &rl.Clients[0]
	base := &site{Site: flow.Site{Recv: args[rc.Via.Index]}, call: call, stores: st.stores, pass: st.pass}
	if !restyRetries(base, e) {
		return nil
	}
	s := &Scope{Kind: Client, Func: rc.Func, Helper: helperName(rc.Func)}
	rl.summarise(base, e, s)
	return s
}
