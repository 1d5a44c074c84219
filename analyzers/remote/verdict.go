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
	param  int    // vParam: the parameter's index in the function's SSA parameters
	req    bool   // vParam: the parameter is a request whose context decides
	by     string // vBounded: what bounds it
	src    Source // vUnbounded: where the context without a deadline comes from, or NoContext
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

// join combines the verdicts of alternative paths (the edges of a phi, the stores into a
// field): a bound on any path counts ("anywhere on the path"), then an unknown path wins.
func join(a, b verdict) verdict {
	switch {
	case a.k == vNone:
		return b
	case b.k == vNone:
		return a
	case a.k == vBounded:
		return a
	case b.k == vBounded:
		return b
	case a.k == vUnknown:
		return a
	case b.k == vUnknown:
		return b
	case a.k == vParam && b.k == vParam:
		if a.param == b.param && a.req == b.req {
			return a
		}
		return unknown
	case a.k == vParam:
		return a
	case b.k == vParam:
		return b
	}
	return a // both unbounded: the first explains it
}

// either combines two independent bounds of one call (a client's timeout and the request's
// context): either one suffices.
func either(a, b verdict) verdict {
	switch {
	case a.k == vBounded:
		return a
	case b.k == vBounded:
		return b
	case a.k == vUnknown || a.k == vNone || b.k == vUnknown || b.k == vNone:
		return unknown
	case a.k == vParam && b.k == vParam:
		return unknown
	case a.k == vParam:
		return a
	case b.k == vParam:
		return b
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
	}
	return t
}
