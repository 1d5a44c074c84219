package retryscope

import (
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// A retryablehttp client retries each request until the request's context ends: its waits
// and attempts observe that context and nothing else. A request made with NewRequest (or sent
// with Client.Get, Head, Post, PostForm, which make one so) carries context.Background: its
// retries outlive every deadline of the caller's.

// requestDeadline sets the deadline of a call of a retryablehttp client from the request it
// sends: none for a request made without a context, the library's unknown otherwise.
func requestDeadline(c *site, s *Scope, _ []ssa.Value) {
	if s.Deadline != DeadlineUnknown {
		return
	}
	switch flow.ID(flow.Callee(c.call.Common())).Name {
	case "Get", "Head", "Post", "PostForm":
		s.Deadline = DeadlineNone
	case "Do":
		made, withCtx := false, false
		c.stores.Backward(c.Arg(0), 64, func(x ssa.Value) bool {
			call, ok := x.(*ssa.Call)
			if !ok {
				return true
			}
			id := flow.ID(flow.Callee(call.Common()))
			if id.Pkg != knowledge.RetryableHTTPPath {
				return false // made elsewhere: its context is not known
			}
			m, maker := knowledge.RequestMakers[id]
			_, copied := knowledge.RequestCopies[id]
			switch {
			case maker && m.Ctx == knowledge.NoArg:
				made = true
			case maker || copied:
				withCtx = true // a context given, or the copied request's
			}
			return true
		})
		if made && !withCtx {
			s.Deadline = DeadlineNone
		}
	}
}
