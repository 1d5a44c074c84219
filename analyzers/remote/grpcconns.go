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
// that gives every unary call a deadline (knowledge.InterceptorOf), followed from the
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

// dialInterceptors is what a dial's options install: the interceptor that bounds every unary
// call ("" when none), and the constructor call of one that retries them (nil when none).
type dialInterceptors struct {
	by      string
	retrier *ssa.Call
}

// connTrace is what a connection value was traced to.
type connTrace struct {
	dials    int              // dials found
	bounded  int              // dials with a deadline interceptor
	by       string           // that interceptor, for messages
	retriers []*ssa.Call      // per dial, the retry interceptor that retries its calls, or nil
	params   []*ssa.Parameter // connections the caller gives
	unknown  bool             // a connection from where the model does not look
	seen     map[ssa.Value]bool
}

// connOf traces recv, a gRPC stub or connection, to the dials the package's code shows
// reaching it; nil when it may come from anywhere else (a caller, another package).
func (st *state) connOf(recv ssa.Value) *connTrace {
	t := &connTrace{seen: make(map[ssa.Value]bool)}
	st.traceConn(recv, t, 0)
	if t.unknown || len(t.params) > 0 || t.dials == 0 {
		return nil
	}
	return t
}

// deadline returns what bounds every unary call on the connection: the interceptor found on
// every dial; "" when a dial has none.
func (t *connTrace) deadline() string {
	if t == nil || t.bounded < t.dials {
		return ""
	}
	return t.by
}

// retrier returns the constructor call of the interceptor that retries the unary calls on the
// connection, when every dial has one; nil otherwise.
func (t *connTrace) retrier() *ssa.Call {
	if t == nil || slices.Contains(t.retriers, nil) {
		return nil
	}
	return t.retriers[0]
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
	if id.Pkg == knowledge.GRPCPath && id.Recv == "" {
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
		d, ok := st.dials[call]
		if !ok {
			d.by, d.retrier = st.interceptorsOf(opts)
			st.dials[call] = d // every stub call on the connection reads the same dial
		}
		by, retrier := d.by, d.retrier
		if by != "" {
			t.bounded++
			t.by = by
		}
		t.retriers = append(t.retriers, retrier)
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
	if sig.Recv() != nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !grpcConnType(sig.Params().At(0).Type()) || !grpcValueType(sig.Results().At(0).Type()) {
		return -1
	}
	return 0
}

// grpcConnType reports whether t is a gRPC connection: *grpc.ClientConn or
// grpc.ClientConnInterface.
func grpcConnType(t types.Type) bool {
	return typeis.Named(t, knowledge.GRPCPath, "ClientConn") || typeis.Named(t, knowledge.GRPCPath, "ClientConnInterface")
}

// interceptorsOf reads a dial's options (made here, by functions of the package, or given by
// the package's calls of an unexported function): the interceptor among them that gives every
// unary call a deadline ("" when none does), and the constructor call of one that retries the
// calls (nil when none does).
func (st *state) interceptorsOf(opts []ssa.Value) (by string, retrier *ssa.Call) {
	stores := st.stores
	seen := make(map[*ssa.Parameter]bool)
	for len(opts) > 0 {
		o := opts[0]
		opts = opts[1:]
		stores.BackwardInto(o, st.pass.Pkg, 256, func(x ssa.Value) bool {
			if p, ok := x.(*ssa.Parameter); ok && !seen[p] {
				seen[p] = true
				if args, onlyThese := st.argsGiven(p); onlyThese && p.Parent().Parent() == nil {
					opts = append(opts, args...) // an unexported function only the package calls
				}
				return false
			}
			call, ok := x.(*ssa.Call)
			if !ok {
				return true
			}
			callee := flow.Callee(call.Common())
			if callee == nil {
				return true
			}
			d, ok := knowledge.InterceptorOf(flow.ID(callee))
			if !ok {
				return true
			}
			timeout, attempts := interceptorOptions(call, callee.Pkg().Path(), d, stores)
			if by == "" && (d.Timeout == "" || timeout && attempts >= 1) {
				by = d.Name
			}
			if retrier == nil && d.Retries && attempts >= 2 {
				retrier = call
			}
			return false
		})
	}
	return by, retrier
}

// interceptorOptions says whether the options of an interceptor's constructor set a
// per-attempt timeout, and the fewest attempts they may set (0 when none, or not a constant:
// a retry interceptor with no count makes one plain call with the caller's context).
func interceptorOptions(call *ssa.Call, pkg string, d knowledge.Interceptor, stores *flow.Stores) (timeout bool, attempts int64) {
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
				if ks := flow.IntConsts(c.Call.Args[0], stores); len(ks) > 0 {
					attempts = slices.Min(ks)
				}
			}
			return false
		})
	}
	return timeout, attempts
}

// traceForeignConn follows a package variable of another package to the connections this
// package's calls give the function that sets it (connFact).
func (st *state) traceForeignConn(g *ssa.Global, t *connTrace, depth int) {
	args, ok := st.foreignConns[g]
	if !ok {
		args = st.connsGiven(g)
		st.foreignConns[g] = args // every stub call on the variable asks the same
	}
	if len(args) == 0 {
		t.unknown = true
	}
	for _, a := range args {
		st.traceConn(a, t, depth+1)
	}
}

// connsGiven returns the connections this package's calls give the function that sets g, a
// package variable of another package with a connFact; none without one.
func (st *state) connsGiven(g *ssa.Global) []ssa.Value {
	var f connFact
	if g.Object() == nil || !st.pass.ImportObjectFact(g.Object(), &f) {
		return nil
	}
	var args []ssa.Value
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			callee := flow.Callee(call.Common())
			if callee == nil || callee.Pkg() != g.Object().Pkg() || callee.Name() != f.Func || callee.Signature().Recv() != nil {
				continue
			}
			if a := call.Common().Args; f.Param < len(a) {
				args = append(args, a[f.Param])
			}
		}
	}
	return args
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
