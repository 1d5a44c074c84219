package remote

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// A transport whose dialer sets a deadline on every connection it returns (conn, err :=
// net.DialTimeout(...); conn.SetDeadline(time.Now().Add(rw))): every read and write of a
// request through it ends by that deadline, as a client Timeout would end the request.

// dialerDeadline reports whether every http.Transport the package makes and stores into an
// http.Client's Transport field (fa), directly or through a function of the package that
// returns one (a buildTransport whose default is a literal), dials through a function that
// sets a deadline on each connection. A transport the caller gives is the caller's: it does
// not count against the default.
func dialerDeadline(fa *ssa.FieldAddr) bool {
	found := false
	for _, rr := range *fa.Referrers() {
		st, ok := rr.(*ssa.Store)
		if !ok || st.Addr != fa {
			continue
		}
		for _, t := range madeTransports(st.Val, 0) {
			if !deadlineDial(t) {
				return false
			}
			found = true
		}
	}
	return found
}

// madeTransports returns the http.Transport literals v may be: itself, the edges of a phi,
// what a function of the package returns.
func madeTransports(v ssa.Value, depth int) []*ssa.Alloc {
	if depth > 3 {
		return nil
	}
	v = flow.Unwrap(v)
	switch x := v.(type) {
	case *ssa.Alloc:
		if typeis.Named(x.Type(), "net/http", "Transport") {
			return []*ssa.Alloc{x}
		}
	case *ssa.Phi:
		var out []*ssa.Alloc
		for _, e := range x.Edges {
			out = append(out, madeTransports(e, depth+1)...)
		}
		return out
	case *ssa.Call:
		fn := x.Call.StaticCallee()
		if fn == nil || len(fn.Blocks) == 0 || fn.Pkg != x.Parent().Pkg {
			return nil
		}
		var out []*ssa.Alloc
		for r := range returned(fn, 0) {
			out = append(out, madeTransports(r, depth+1)...)
		}
		return out
	}
	return nil
}

// deadlineDial reports whether transport t dials through functions that each set a deadline
// on the connection they dial.
func deadlineDial(t *ssa.Alloc) bool { return transportDials(t, setsConnDeadline) }

// transportDials reports whether a function is stored into the DialContext or Dial field of
// transport t, and pred holds for every function stored there (dialFuncs); false when one
// stored value is not a function the model can see.
func transportDials(t *ssa.Alloc, pred func(*ssa.Function) bool) bool {
	set := false
	for _, ar := range *t.Referrers() {
		fa, ok := ar.(*ssa.FieldAddr)
		if !ok || flow.FieldVar(fa) == nil || flow.FieldVar(fa).Name() != "DialContext" && flow.FieldVar(fa).Name() != "Dial" {
			continue
		}
		for _, r := range *fa.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			fns := dialFuncs(st.Val)
			if len(fns) == 0 || slices.ContainsFunc(fns, func(fn *ssa.Function) bool { return !pred(fn) }) {
				return false
			}
			set = true
		}
	}
	return set
}

// dialFuncs returns the functions a dial function value v may be: a function, a closure, or
// the closures a function of the package returns (TimeoutDialer(connect, rw)).
func dialFuncs(v ssa.Value) []*ssa.Function {
	switch x := flow.Unwrap(v).(type) {
	case *ssa.Function:
		return []*ssa.Function{x}
	case *ssa.MakeClosure:
		if fn, ok := x.Fn.(*ssa.Function); ok {
			return []*ssa.Function{fn}
		}
	case *ssa.Call:
		fn := x.Call.StaticCallee()
		if fn == nil || len(fn.Blocks) == 0 {
			return nil
		}
		var out []*ssa.Function
		for r := range returned(fn, 0) {
			fs := dialFuncs(r)
			if len(fs) == 0 {
				return nil
			}
			out = append(out, fs...)
		}
		return out
	}
	return nil
}

// setsConnDeadline reports whether fn sets a deadline (SetDeadline or SetReadDeadline, to a
// value that is not the zero time) on a connection it makes, before it returns it.
func setsConnDeadline(fn *ssa.Function) bool {
	for call := range flow.Calls(fn) {
		c := call.Common()
		name := ""
		switch {
		case c.IsInvoke():
			name = c.Method.Name()
		case c.StaticCallee() != nil && c.StaticCallee().Signature.Recv() != nil:
			name = c.StaticCallee().Name()
		default:
			continue
		}
		if name != "SetDeadline" && name != "SetReadDeadline" {
			continue
		}
		args := c.Args
		if !c.IsInvoke() && len(args) > 0 {
			args = args[1:]
		}
		if len(args) == 1 && !zeroTime(args[0]) && connFromDial(call) {
			return true
		}
	}
	return false
}

// zeroTime reports whether v is time.Time{}, which clears a deadline.
func zeroTime(v ssa.Value) bool {
	if k, ok := flow.Unwrap(v).(*ssa.Const); ok {
		return k.IsNil() || k.Value == nil
	}
	if ld, ok := flow.Unwrap(v).(*ssa.UnOp); ok && ld.Op == token.MUL {
		if a, ok := ld.X.(*ssa.Alloc); ok && len(flow.Stored(a)) == 0 {
			return true
		}
	}
	return false
}

// connFromDial reports whether the receiver of call, a deadline setter, is a connection that a
// dial in the same function returned.
func connFromDial(call ssa.CallInstruction) bool {
	c := call.Common()
	recv := c.Value
	if !c.IsInvoke() {
		recv = c.Args[0]
	}
	recv = flow.Unwrap(recv)
	if e, ok := recv.(*ssa.Extract); ok {
		if d, ok := e.Tuple.(*ssa.Call); ok {
			id := flow.ID(flow.Callee(d.Common()))
			return id.Pkg == "net" || id.Pkg == "crypto/tls"
		}
	}
	return false
}
