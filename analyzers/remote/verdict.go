package remote

import "go/token"

type vkind uint8

const (
	vNone      vkind = iota // no information (a cycle was closed): the identity of join
	vUnknown                // cannot tell: treated as handled
	vParam                  // depends only on a parameter of the function being analysed
	vBounded                // a timeout or deadline applies
	vUnbounded              // nothing bounds it
)

// A verdict is what a walk found about one value: whether something bounds the call it
// reaches, and when nothing does, why.
type verdict struct {
	k      vkind
	param  int      // vParam: the parameter's index in the function's SSA parameters
	req    bool     // vParam: the parameter is a request whose context decides
	obj    *objType // vParam: the parameter is a client or dialer of this type, whose timeout decides
	by     string   // vBounded: what bounds it
	src    Source   // vUnbounded: where the context without a deadline comes from, or NoContext
	origin *Origin
}

var (
	none    = verdict{k: vNone}
	unknown = verdict{k: vUnknown}
)

func bounded(by string) verdict { return verdict{k: vBounded, by: by} }
func noContext() verdict        { return unbounded(NoContext, 0) }

func unbounded(k SourceKind, pos token.Pos) verdict {
	return verdict{k: vUnbounded, src: Source{Kind: k, Pos: pos}}
}

// joinRank orders the kinds for join: a bound on any path counts ("anywhere on the path"),
// then an unknown path, then a dependence on the caller; none is join's identity.
var joinRank = [...]int{vNone: 0, vUnbounded: 1, vParam: 2, vUnknown: 3, vBounded: 4}

// join combines the verdicts of alternative paths (the edges of a phi, the stores into a
// field). Of two unbounded paths the first explains it; paths that depend on different
// parameters are unknown.
func join(a, b verdict) verdict {
	if a.k == vParam && b.k == vParam && (a.param != b.param || a.req != b.req || a.obj != b.obj) {
		return unknown
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
		return b
	case a.k != vUnbounded || b.k != vUnbounded:
		return unknown // one side unknown, or both the caller's
	}
	// Both unbounded: one side says which client or dialer, the other where the context
	// comes from, which says more than that there is none.
	out := a
	if out.origin == nil {
		out.origin = b.origin
	}
	if out.src.Kind == 0 || out.src.Kind == NoContext && b.src.Kind != 0 {
		out.src = b.src
	}
	return out
}

func (v verdict) timeout() Timeout {
	t := Timeout{Param: -1}
	switch v.k {
	case vBounded:
		t.Status, t.By = Bounded, v.by
	case vUnbounded:
		t.Status, t.Context, t.Client = Unbounded, v.src, v.origin
	case vParam:
		t.Param, t.Request = v.param, v.req
		if v.obj != nil {
			t.ParamClient, t.Context = v.obj.display, v.src
		}
	}
	return t
}
