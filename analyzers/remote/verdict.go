package remote

import (
	"go/token"
	"slices"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

type vkind uint8

const (
	vNone      vkind = iota // no information (a cycle was closed): the identity of join
	vUnknown                // cannot tell: treated as handled
	vParam                  // depends only on a parameter of the function being analysed
	vCaller                 // a client a caller gives another function (unknown, but see join)
	vBounded                // a timeout or deadline applies
	vUnbounded              // nothing bounds it
)

// A verdict is what a walk found about one value: whether something bounds the call it
// reaches, and when nothing does, why.
type verdict struct {
	k        vkind
	param    int                   // vParam: the parameter's index in the function's SSA parameters
	req      bool                  // vParam: the parameter is a request whose context decides
	obj      *knowledge.ClientType // vParam: the parameter is a client or dialer of this type, whose timeout decides
	kept     *ssa.Function         // vParam: the parameter is this function's, which keeps its context for the call (ctxField)
	captured bool                  // vParam with kept: kept is a function the analysed literal is made in, whose context it captured
	with     *With                 // vParam with obj: the request or context parameter whose deadline also bounds the call
	by       string                // vBounded: what bounds it
	limit    time.Duration         // vBounded: the bound, when a constant gives it; 0 otherwise
	src      Source                // vUnbounded: where the context without a deadline comes from, or NoContext
	origin   *Origin
	also     []*Origin // vUnbounded: the other clients without a timeout that reach the call
	at       token.Pos // vCaller: where the caller's client comes in (a parameter, an option's field)
}

var (
	none    = verdict{k: vNone}
	unknown = verdict{k: vUnknown}
)

func bounded(by string) verdict { return verdict{k: vBounded, by: by} }

// boundedFor is bounded by a duration d, whose value is known when d is a positive constant
// (10 * time.Second).
func boundedFor(by string, d ssa.Value) verdict {
	v := bounded(by)
	if n, ok := flow.IntConst(d); ok && n > 0 {
		v.limit = time.Duration(n)
	}
	return v
}
func caller(at token.Pos) verdict { return verdict{k: vCaller, at: at} }
func noContext() verdict          { return unbounded(NoContext, 0) }

func unbounded(k SourceKind, pos token.Pos) verdict {
	return verdict{k: vUnbounded, src: Source{Kind: k, Pos: pos}}
}

// joinRank orders the kinds for join: a bound on any path counts ("anywhere on the path"),
// then an unknown path, then a dependence on the caller; none is join's identity.
var joinRank = [...]int{vNone: 0, vUnbounded: 1, vParam: 2, vCaller: 3, vUnknown: 4, vBounded: 5}

// join combines the verdicts of alternative paths (the edges of a phi, the stores into a
// field). Of two unbounded paths the first explains it; paths that depend on different
// parameters are unknown. A client without a timeout on one path and the caller's on the
// other is a default the caller may not replace: unbounded, with the origin marked Fallback.
func join(a, b verdict) verdict {
	if fb, ok := fallback(a, b); ok {
		return fb
	}
	if a.k == vUnbounded && b.k == vUnbounded && a.origin != nil && b.origin != nil {
		a.also = alsoOrigins(a, b)
		return a
	}
	if a.k == vParam && b.k == vParam && (a.param != b.param || a.req != b.req || a.obj != b.obj || a.kept != b.kept || a.captured != b.captured || !a.with.same(b.with)) {
		return unknown
	}
	if a.k == vBounded && b.k == vBounded && a.limit != b.limit {
		a.limit = max(a.limit, b.limit) // the longer path's bound, unknown when one is
		if b.limit == 0 || a.limit == 0 {
			a.limit = 0
		}
		return a
	}
	if joinRank[b.k] > joinRank[a.k] {
		return b
	}
	return a
}

// either combines two independent bounds of one call (a client's timeout and the request's
// context): either one suffices.
func either(a, b verdict) verdict {
	switch {
	case a.k == vBounded && b.k == vBounded:
		if b.limit > 0 && (a.limit == 0 || b.limit < a.limit) {
			a.limit = b.limit // the first to expire ends the call
		}
		return a
	case a.k == vBounded:
		return a
	case b.k == vBounded:
		return b
	case a.k == vParam && b.k == vUnbounded:
		if a.obj != nil {
			a.src = b.src // the caller's client, and why the request has no deadline
		}
		return a
	case b.k == vParam && a.k == vUnbounded:
		if b.obj == nil && a.origin != nil {
			b.origin, b.also = a.origin, a.also // clients without a timeout: only the caller's context bounds the call
		}
		return b
	case a.k == vParam && b.k == vParam:
		// The caller's client and the caller's request (DoWithClient(req, client)): the call
		// hangs when neither bounds it, which the caller's arguments decide.
		if v, ok := clientAndRequest(a, b); ok {
			return v
		}
		if v, ok := clientAndRequest(b, a); ok {
			return v
		}
		return unknown
	case a.k != vUnbounded || b.k != vUnbounded:
		return unknown // one side unknown, or both the caller's
	}
	// Both unbounded: one side says which client or dialer, the other where the context
	// comes from, which says more than that there is none.
	out := a
	if out.origin == nil {
		out.origin, out.also = b.origin, b.also
	}
	if out.src.Kind == 0 || out.src.Kind == NoContext && b.src.Kind != 0 {
		out.src = b.src
	}
	return out
}

// A With is the parameter of a function whose context, besides the client it is given, bounds
// its remote call: a request (whose context is used) or a context.
type With struct {
	Index   int // among the function's SSA parameters
	Request bool
}

func (w *With) same(o *With) bool { return w == nil && o == nil || w != nil && o != nil && *w == *o }

// clientAndRequest combines cl, the caller's client, with cx, the caller's request or context,
// into one verdict on the caller's two arguments.
func clientAndRequest(cl, cx verdict) (verdict, bool) {
	if cl.obj == nil || cl.kept != nil || cl.with != nil || cx.obj != nil || cx.kept != nil || cx.with != nil {
		return verdict{}, false
	}
	cl.with = &With{Index: cx.param, Request: cx.req}
	return cl, true
}

func (v verdict) timeout() Timeout {
	t := Timeout{Param: -1}
	switch v.k {
	case vBounded:
		t.Status, t.By, t.Limit = Bounded, v.by, v.limit
	case vUnbounded:
		t.Status, t.Context, t.Client, t.Others = Unbounded, v.src, v.origin, v.also
	case vParam:
		if v.kept != nil {
			t.Status, t.kept, t.keptParam, t.captured = Unknown, v.kept, v.param, v.captured
			t.Client, t.Others = v.origin, v.also
			break
		}
		t.Param, t.Request = v.param, v.req
		if v.obj != nil {
			t.ParamClient, t.Context, t.with = v.obj.Display, v.src, v.with
		} else {
			t.Client, t.Others = v.origin, v.also
		}
	}
	return t
}

// maxOthers bounds the other clients a verdict keeps (Timeout.Others).
const maxOthers = 8

// alsoOrigins is a's other clients without a timeout, with b's: each is a line to change,
// reported where it is made, though one explains the call.
func alsoOrigins(a, b verdict) []*Origin {
	out := slices.Clone(a.also)
	for _, o := range append([]*Origin{b.origin}, b.also...) {
		if len(out) == maxOthers {
			break
		}
		if o.Pos == a.origin.Pos || slices.ContainsFunc(out, func(x *Origin) bool { return x.Pos == o.Pos }) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// fallback combines a client without a timeout (a) with a client the caller may give instead
// (b: a parameter of this function or of another, a field of one), in either order.
func fallback(a, b verdict) (verdict, bool) {
	if b.k == vUnbounded && b.origin != nil {
		a, b = b, a
	}
	if a.k != vUnbounded || a.origin == nil {
		return verdict{}, false
	}
	switch {
	case b.k == vCaller:
	case b.k == vParam && b.obj != nil:
	default:
		return verdict{}, false
	}
	mark := func(o *Origin) *Origin {
		c := *o
		if !c.Fallback {
			c.Fallback, c.Given = true, b.at
		}
		return &c
	}
	a.origin = mark(a.origin)
	if len(a.also) > 0 {
		also := make([]*Origin, len(a.also))
		for i, o := range a.also {
			also[i] = mark(o)
		}
		a.also = also
	}
	return a, true
}
