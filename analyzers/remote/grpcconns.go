package remote

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// gRPC connections: whether the connection a stub sends through was dialled with an interceptor
// that gives every unary call a deadline (knowledge.DeadlineInterceptorOf), followed from the
// call to the dial through the package's variables, fields and functions; and the package
// variables that hold a stub made from a connection a function of their package is given
// (connFact), through which a program's main reaches a stub another package keeps.

// connFact marks an exported package variable that its package sets only to a gRPC stub (or
// connection) made from parameter Param of its function Func: whoever calls Func chooses the
// connection.
type connFact struct {
	Func  string
	Param int
}

func (*connFact) AFact() {}

func (f *connFact) String() string {
	return fmt.Sprintf("connection from %s's parameter %d", f.Func, f.Param)
}

// connTrace is what a connection value was traced to.
type connTrace struct {
	dials, bounded int              // dials found, and those with a deadline interceptor
	by             string           // the interceptor, for messages
	params         []*ssa.Parameter // connections the caller gives
	unknown        bool             // a connection from where the model does not look
	seen           map[ssa.Value]bool
}

// deadlineConn returns what bounds every unary call made through recv, a gRPC stub or
// connection: the interceptor found on every dial the package's code shows reaching it; "" when
// a dial has none or the connection may come from anywhere else.
func (st *state) deadlineConn(recv ssa.Value) string {
	t := &connTrace{seen: make(map[ssa.Value]bool)}
	st.traceConn(recv, t, 0)
	if t.unknown || len(t.params) > 0 || t.dials == 0 || t.bounded < t.dials {
		return ""
	}
	return t.by
}

func (st *state) traceConn(v ssa.Value, t *connTrace, depth int) {
	if v == nil || t.seen[v] {
		return
	}
	if depth > 24 || len(t.seen) > 256 {
		t.unknown = true
		return
	}
	t.seen[v] = true
	switch x := v.(type) {
	case *ssa.Const:
		// nil: no connection on this path
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok {
			st.traceConnCall(call, x.Index, t, depth)
			return
		}
		t.unknown = true
	case *ssa.Call:
		st.traceConnCall(x, 0, t, depth)
	case *ssa.Phi:
		for _, e := range x.Edges {
			st.traceConn(e, t, depth+1)
		}
	case *ssa.MakeInterface:
		st.traceConn(x.X, t, depth+1)
	case *ssa.ChangeInterface:
		st.traceConn(x.X, t, depth+1)
	case *ssa.ChangeType:
		st.traceConn(x.X, t, depth+1)
	case *ssa.TypeAssert:
		st.traceConn(x.X, t, depth+1)
	case *ssa.FreeVar:
		b := flow.Bindings(x)
		if len(b) == 0 {
			t.unknown = true
		}
		for _, y := range b {
			st.traceConn(y, t, depth+1)
		}
	case *ssa.Parameter:
		t.params = append(t.params, x)
	case *ssa.UnOp:
		if x.Op != token.MUL {
			t.unknown = true
			return
		}
		var vals []ssa.Value
		switch a := x.X.(type) {
		case *ssa.Global:
			if a.Pkg != st.pkg {
				st.traceForeignConn(a, t, depth)
				return
			}
			vals = st.stores.Globals[a]
		case *ssa.Alloc:
			vals = flow.StoredWithClosures(a)
		default:
			vals = st.stores.Loaded(x)
		}
		if len(vals) == 0 {
			t.unknown = true
		}
		for _, y := range vals {
			st.traceConn(y, t, depth+1)
		}
	default:
		t.unknown = true
	}
}

// traceConnCall follows result idx of call: a dial, a stub made from a connection, or a
// function of this package that returns one.
func (st *state) traceConnCall(call *ssa.Call, idx int, t *connTrace, depth int) {
	callee := flow.Callee(call.Common())
	if callee == nil || call.Call.IsInvoke() {
		t.unknown = true
		return
	}
	id := flow.ID(callee)
	site := flow.NewSite(call.Common(), callee)
	if id.Pkg == grpcPkg && id.Recv == "" {
		var opts []ssa.Value
		switch id.Name {
		case "Dial", "NewClient":
			opts = site.Variadic(1)
		case "DialContext":
			opts = site.Variadic(2)
		default:
			t.unknown = true
			return
		}
		t.dials++
		if by := deadlineOption(opts, st.stores, st.pass.Pkg); by != "" {
			t.bounded++
			t.by = by
		}
		return
	}
	if i := stubConstructor(callee); i >= 0 && idx == 0 {
		st.traceConn(site.Arg(i), t, depth+1)
		return
	}
	if callee.Pkg() == st.pass.Pkg {
		if fn := st.pkg.Prog.FuncValue(callee); fn != nil && len(fn.Blocks) > 0 {
			for ret := range flow.Returns(fn) {
				if idx < len(ret.Results) {
					st.traceConn(ret.Results[idx], t, depth+1)
				}
			}
			return
		}
	}
	t.unknown = true
}

// stubConstructor returns the index of the connection parameter of fn when fn makes a gRPC
// stub from a connection (a generated NewXClient(cc grpc.ClientConnInterface)); -1 otherwise.
func stubConstructor(fn *types.Func) int {
	sig := fn.Signature()
	if sig.Recv() != nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !grpcConnType(sig.Params().At(0).Type()) {
		return -1
	}
	return 0
}

// grpcConnType reports whether t is a gRPC connection: *grpc.ClientConn or
// grpc.ClientConnInterface.
func grpcConnType(t types.Type) bool {
	return typeis.Named(t, grpcPkg, "ClientConn") || typeis.Named(t, grpcPkg, "ClientConnInterface")
}

// deadlineOption returns the interceptor among a dial's options (made here, or by functions of
// package pkg) that gives every unary call a deadline; "" when none does.
func deadlineOption(opts []ssa.Value, stores *flow.Stores, pkg *types.Package) string {
	by := ""
	for _, o := range opts {
		stores.BackwardInto(o, pkg, 256, func(x ssa.Value) bool {
			call, ok := x.(*ssa.Call)
			if !ok || by != "" {
				return by == ""
			}
			callee := flow.Callee(call.Common())
			if callee == nil {
				return true
			}
			d, ok := knowledge.DeadlineInterceptorOf(flow.ID(callee))
			if !ok {
				return true
			}
			if d.Timeout == "" || interceptorBounds(call, callee.Pkg().Path(), d, stores) {
				by = d.Name
			}
			return false
		})
	}
	return by
}

// interceptorBounds reports whether the options of a retry interceptor's constructor set both a
// per-attempt timeout and an attempt count above zero (without one, the interceptor makes one
// plain call with the caller's context).
func interceptorBounds(call *ssa.Call, pkg string, d knowledge.DeadlineInterceptor, stores *flow.Stores) bool {
	timeout, count := false, false
	for _, a := range call.Call.Args {
		stores.Backward(a, 128, func(x ssa.Value) bool {
			c, ok := x.(*ssa.Call)
			if !ok {
				return true
			}
			id := flow.ID(flow.Callee(c.Common()))
			if id.Pkg != pkg || id.Recv != "" {
				return true
			}
			switch id.Name {
			case d.Timeout:
				timeout = true
			case d.Count:
				ks := flow.IntConsts(c.Call.Args[0], stores)
				count = len(ks) > 0
				for _, k := range ks {
					count = count && k > 0
				}
			}
			return false
		})
	}
	return timeout && count
}

// traceForeignConn follows a package variable of another package to the connections this
// package's calls give the function that sets it (connFact).
func (st *state) traceForeignConn(g *ssa.Global, t *connTrace, depth int) {
	var f connFact
	if g.Object() == nil || !st.pass.ImportObjectFact(g.Object(), &f) {
		t.unknown = true
		return
	}
	found := false
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			callee := flow.Callee(call.Common())
			if callee == nil || callee.Pkg() != g.Object().Pkg() || callee.Name() != f.Func || callee.Signature().Recv() != nil {
				continue
			}
			if args := call.Common().Args; f.Param < len(args) {
				found = true
				st.traceConn(args[f.Param], t, depth+1)
			}
		}
	}
	if !found {
		t.unknown = true
	}
}

// exportConnFacts exports a connFact for each exported package variable holding a gRPC stub or
// connection that the package sets only from one parameter of one of its exported functions.
func (st *state) exportConnFacts() {
	for _, m := range st.pkg.Members {
		g, ok := m.(*ssa.Global)
		if !ok || g.Object() == nil || !g.Object().Exported() || !grpcValueType(g.Object().Type()) {
			continue
		}
		vals := st.stores.Globals[g]
		if len(vals) == 0 {
			continue
		}
		t := &connTrace{seen: make(map[ssa.Value]bool)}
		for _, v := range vals {
			st.traceConn(v, t, 0)
		}
		if t.unknown || t.dials > 0 || len(t.params) == 0 {
			continue
		}
		p := t.params[0]
		fn := p.Parent()
		obj, ok := fn.Object().(*types.Func)
		same := ok && obj.Exported() && fn.Signature.Recv() == nil
		for _, q := range t.params {
			same = same && q == p
		}
		if same {
			st.pass.ExportObjectFact(g.Object(), &connFact{Func: obj.Name(), Param: slices.Index(fn.Params, p)})
		}
	}
}

// grpcValueType reports whether t is a gRPC connection or a stub: a type with a method of a
// gRPC call's signature.
func grpcValueType(t types.Type) bool {
	if grpcConnType(t) {
		return true
	}
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if fn, ok := ms.At(i).Obj().(*types.Func); ok {
			if _, ok := grpcCall(fn); ok {
				return true
			}
		}
	}
	return false
}
