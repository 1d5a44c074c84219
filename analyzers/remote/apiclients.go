package remote

import (
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
)

// An APIClient is an http.Client without a Timeout that an exported function of the package
// makes and returns for its callers to give back to the package's API, which sends their
// requests through a client they give (jira's BasicAuthTransport.Client, for NewClient(url,
// tp.Client())): its missing Timeout is the package's, as its default client's is, and a
// caller that gives it is not reported again for the contexts it passes.
type APIClient struct {
	Func   *ssa.Function // the function that makes and returns it
	Origin *Origin       // the client, where it is made
	Sends  *Call         // a call of the package that sends its callers' requests through a client they give
}

// apiClients returns the package's APIClients: none unless some call of the package sends
// its caller's request through a default that a client the caller gives replaces
// (Origin.Given). The client must be made in the function (a composite literal or new, not
// a copy of another client it holds) and be fresh on every call, by a function that is not
// handed a client itself (NewSigningClient(creds, httpClient) wraps its caller's: the one
// that sends).
func (st *state) apiClients(calls []*Call) []*APIClient {
	if st.pass.Pkg.Name() == "main" {
		return nil
	}
	var sends *Call
	for _, c := range calls {
		if o := c.Timeout.Client; c.Kind == HTTP && c.Timeout.Owned(st.pass.Pkg) && o.Fallback && o.Given.IsValid() && o.Type == knowledge.HTTPClient.Display {
			sends = c
			break
		}
	}
	if sends == nil {
		return nil
	}
	var out []*APIClient
	for _, fn := range st.funcs {
		if fn.Synthetic != "" || fn.Parent() != nil || !flow.Callable(fn) || testcode.At(st.pass, fn.Pos()) || takesClient(fn) {
			continue
		}
		results := fn.Signature.Results()
		for i := 0; i < results.Len(); i++ {
			if objTypeOf(results.At(i).Type()) != knowledge.HTTPClient || !st.freshResults(fn, i) {
				continue
			}
			w, v := st.walker(fn), none
			for r := range returned(fn, i) {
				v = join(v, w.obj(r, nil, knowledge.HTTPClient))
			}
			o := v.origin
			if v.k != vUnbounded || o == nil || o.Kind != Local || o.CopyOf != "" || o.Alloc == nil || o.Alloc.Parent() != fn ||
				o.Transport != "" || o.Zeroed.IsValid() || o.Unset.IsValid() || !o.Pos.IsValid() || testcode.At(st.pass, o.Pos) {
				continue
			}
			out = append(out, &APIClient{Func: fn, Origin: o, Sends: sends})
		}
	}
	return out
}

// takesClient reports whether fn has a parameter of type *http.Client.
func takesClient(fn *ssa.Function) bool {
	for _, p := range fn.Params {
		if objTypeOf(p.Type()) == knowledge.HTTPClient {
			return true
		}
	}
	return false
}
