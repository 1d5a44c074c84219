package remote

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// SDK clients: where the service client an SDK call goes through is made. A program that
// passes context.Background() to every call of an SDK client has one cause, the client's HTTP
// client without an overall timeout, and one line to change: where the client is made
// (cloudformation.NewFromConfig(cfg)), or the config it is made from.

// sdkOrigin follows the receiver of an SDK call back to the call of the SDK's package that
// made it (NewFromConfig, New, NewClient: any function of that package returning the client
// type), through locals, phis, the results of this package's functions, and the values this
// package stores in a field or variable. It returns nil when the client comes from elsewhere
// (a parameter, another package's function) or from several places. The origin names the SDK
// configuration the client is made from when it is one loaded without an HTTP client; given
// is set when that configuration was given one.
func (st *state) sdkOrigin(recv ssa.Value, fn *types.Func) (_ *Origin, given bool) {
	sig := fn.Signature()
	if sig.Recv() == nil {
		return nil, false
	}
	named := namedOf(sig.Recv().Type())
	if named == nil || named.Obj().Pkg() == nil {
		return nil, false
	}
	seen := make(map[ssa.Value]bool)
	var origin *Origin
	ok := true
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		v = flow.Unwrap(v)
		if !ok || seen[v] || depth > 6 {
			return
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Call:
			callee := v.Call.StaticCallee()
			obj := flow.Callee(v.Common())
			switch {
			case obj != nil && obj.Pkg() == named.Obj().Pkg():
				// A handle or paginator made from the client (client.Bucket(b).Object(o),
				// NewListQueuesPaginator(client, in)): the client it is made from.
				if from := sdkSource(v, obj); from != nil {
					walk(from, depth+1)
					return
				}
				t := namedOf(v.Type())
				if t == nil {
					ok = false
					return
				}
				o := &Origin{Kind: Constructor, Type: t.Obj().Pkg().Name() + "." + t.Obj().Name(),
					Field: "HTTP client timeout", Pos: v.Pos(), Name: obj.Pkg().Name() + "." + obj.Name()}
				if origin != nil && origin.Pos != o.Pos {
					ok = false
					return
				}
				switch kind, cfg := st.clientConfig(v); kind {
				case cfgClient:
					given = true
				case cfgDefault:
					o.Config = cfg
				}
				origin = o
			case callee != nil && callee.Pkg == st.pkg && len(callee.Blocks) > 0:
				for r := range returned(callee, 0) {
					walk(r, depth+1)
				}
			default:
				ok = false
			}
		case *ssa.Phi:
			for _, e := range v.Edges {
				if !flow.IsZero(e) {
					walk(e, depth+1)
				}
			}
		case *ssa.UnOp:
			if v.Op != token.MUL {
				ok = false
				return
			}
			var stored []ssa.Value
			switch addr := v.X.(type) {
			case *ssa.FieldAddr:
				fv := flow.FieldVar(addr)
				if fv == nil || fv.Pkg() != st.pass.Pkg {
					ok = false
					return
				}
				stored = st.stores.Fields[fv]
			case *ssa.Global:
				if addr.Pkg != st.pkg {
					ok = false
					return
				}
				stored = st.stores.Globals[addr]
			default:
				ok = false
				return
			}
			if len(stored) == 0 {
				ok = false
			}
			// A client a test stores there (one of its own session's) is not what users run.
			if users := slices.DeleteFunc(slices.Clone(stored), st.madeInTests); len(users) > 0 {
				stored = users
			}
			for _, s := range stored {
				walk(s, depth+1)
			}
		default:
			ok = false
		}
	}
	walk(recv, 0)
	if !ok || given {
		return nil, given
	}
	return origin, false
}

// sdkSource returns the value of the SDK's own package that call, a call of that package,
// derives its result from: the receiver of a method, or an argument of a function that is a
// pointer to one of the package's types. Nil for a constructor (NewFromConfig(cfg)).
func sdkSource(call *ssa.Call, obj *types.Func) ssa.Value {
	args := call.Call.Args
	if obj.Signature().Recv() != nil && len(args) > 0 {
		return args[0]
	}
	for _, a := range args {
		if n := namedOf(a.Type()); n != nil && n.Obj().Pkg() == obj.Pkg() {
			if _, isPtr := types.Unalias(a.Type()).(*types.Pointer); isPtr {
				return a
			}
		}
	}
	return nil
}

func namedOf(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// contextFreeSDKCall classifies a call of an SDK client's method that takes no context
// (aws-sdk-go's CloudWatch.GetMetricData, which sends with context.Background()) as an SDK
// call with no context: only the client's HTTP client could bound it, and the SDK's default
// has no Timeout. A call through an interface of the package counts when every value the
// package stores in the field it is called on is such a client (an interface kept as a seam
// for tests). Nil for other calls.
func (st *state) contextFreeSDKCall(call ssa.CallInstruction, s *flow.Site, fn *types.Func) *Call {
	recv := s.Recv
	if call.Common().IsInvoke() {
		iface := fn
		if fn, recv = st.stores.Concrete(call.Common().Value, st.pass.Pkg, fn.Name(), st.madeInTests); fn == nil {
			if fn = st.sdkMirror(call.Common(), iface); fn == nil {
				return nil
			}
		}
	}
	id := flow.ID(fn)
	form, ok := knowledge.SDKContextForm(id)
	if !ok || fn.Pkg() == st.pass.Pkg {
		return nil
	}
	m, _, _ := types.LookupFieldOrMethod(fn.Signature().Recv().Type(), true, fn.Pkg(), form)
	if sib, ok := m.(*types.Func); !ok || sdkClientOf(sib) == nil {
		return nil
	}
	c := &Call{Instr: call, Func: fn, Kind: SDK, Name: fn.Pkg().Name() + "." + id.Recv + "." + id.Name, Timeout: noContext().timeout()}
	if st.awsClientGiven() {
		// A configuration of the package gives sessions an HTTP client: the team's choice,
		// which the model does not follow to the sessions it makes.
		c.Timeout = Timeout{Status: Unknown, Param: -1}
	} else if recv != nil {
		c.Timeout.Client, _ = st.sdkOrigin(recv, fn)
	}
	st.setContract(c, id.Name)
	return c
}

// A mirrorKey is a method of an interface of the package, as sdkMirror looks it up.
type mirrorKey struct {
	iface *types.Named
	name  string
}

// sdkMirror returns the method of an SDK's client that m, a method of an interface the
// package declares and does not implement itself, stands for: a method of the same name and
// signature (parameter and result types included) of a type of the SDK package that m's
// request parameter comes from, a type that has every method of the interface, and one the
// model knows as an SDK call (knowledge.SDKClients, or the context-free form of one). A package's seam for its SDK client (type QueueAPI interface
// { ReceiveMessage(*sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error) }) is
// filled by the SDK's client in production and by test doubles in tests: a call through it is
// a call of the client. Nil otherwise.
func (st *state) sdkMirror(cc *ssa.CallCommon, m *types.Func) *types.Func {
	named, ok := types.Unalias(cc.Value.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != st.pass.Pkg {
		return nil
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	k := mirrorKey{named, m.Name()}
	if f, ok := st.mirrors[k]; ok {
		return f
	}
	sig := m.Signature()
	var sdk *types.Package
	for p := range sig.Params().Variables() {
		if n := namedOf(p.Type()); n != nil && n.Obj().Pkg() != nil && !typeis.Context(p.Type()) {
			if knowledge.SDKPackage(n.Obj().Pkg().Path()) {
				sdk = n.Obj().Pkg()
			}
			break
		}
	}
	if sdk == nil || slices.ContainsFunc(st.impls.Of(cc), func(f *ssa.Function) bool { return !testcode.At(st.pass, f.Pos()) }) ||
		slices.ContainsFunc(st.impls.Generic(iface), func(tn *types.TypeName) bool { return !testcode.At(st.pass, tn.Pos()) }) {
		return nil
	}
	var found *types.Func
	for _, name := range sdk.Scope().Names() {
		tn, ok := sdk.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		ptr := types.NewPointer(tn.Type())
		obj, _, _ := types.LookupFieldOrMethod(ptr, true, sdk, m.Name())
		if f, ok := obj.(*types.Func); ok && types.Identical(f.Signature(), sig) && types.Implements(ptr, iface) {
			if _, free := knowledge.SDKContextForm(flow.ID(f)); free || sdkClientOf(f) != nil {
				found = f
				break
			}
		}
	}
	if st.mirrors == nil {
		st.mirrors = make(map[mirrorKey]*types.Func)
	}
	st.mirrors[k] = found
	return found
}

// awsClientGiven reports whether the package gives an aws-sdk-go configuration an HTTP client
// (aws.Config{HTTPClient: c}, cfg.WithHTTPClient(c)).
func (st *state) awsClientGiven() bool {
	if st.awsGiven == 0 {
		st.awsGiven = 2
		if st.awsClientGiven1() {
			st.awsGiven = 1
		}
	}
	return st.awsGiven == 1
}

func (st *state) awsClientGiven1() bool {
	for fv, vals := range st.stores.Fields {
		if fv.Name() == "HTTPClient" && len(vals) > 0 && fv.Pkg() != nil && fv.Pkg().Path() == knowledge.AWSv1Config.Pkg {
			return true
		}
	}
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			if id := flow.ID(flow.Callee(call.Common())); id.Pkg == knowledge.AWSv1Config.Pkg && id.Recv == knowledge.AWSv1Config.Name && id.Name == "WithHTTPClient" {
				return true
			}
		}
	}
	return false
}

// madeInTests reports whether v is made by the package's test code (a stand-in stored into a
// seam field), which is not what its users run.
func (st *state) madeInTests(v ssa.Value) bool { return testcode.Made(st.pass, v) }

// builderContext returns the context that the request built in steps and sent from site s (a
// knowledge.SDKBuilder's Send) was given where the builder was made: the receiver followed
// back through the builder's methods that return it (If, Then, Else), and through the phis
// of a builder added to on some paths, to the maker's call (KV.Txn(ctx)). Nil when the
// builder comes from elsewhere (a parameter, a field) or from makers given different contexts.
func builderContext(s *flow.Site, b *knowledge.SDKBuilder) ssa.Value {
	visiting := make(map[ssa.Value]bool)
	// from returns the maker's context for builder v; cycle is set when v is being followed
	// already (a builder carried round a loop), which says nothing either way.
	var from func(v ssa.Value, depth int) (ctx ssa.Value, cycle bool)
	from = func(v ssa.Value, depth int) (ssa.Value, bool) {
		v = flow.Unwrap(v)
		if visiting[v] {
			return nil, true
		}
		if depth > 16 {
			return nil, false
		}
		visiting[v] = true
		defer delete(visiting, v)
		switch v := v.(type) {
		case *ssa.Phi:
			var ctx ssa.Value
			for _, e := range v.Edges {
				c, cycle := from(e, depth+1)
				if cycle {
					continue
				}
				if c == nil || ctx != nil && c != ctx {
					return nil, false
				}
				ctx = c
			}
			return ctx, false
		case *ssa.Call:
			fn := flow.Callee(v.Common())
			if fn == nil || fn.Pkg() == nil || !slices.Contains(b.Pkgs, fn.Pkg().Path()) {
				return nil, false
			}
			step := flow.NewSite(v.Common(), fn)
			switch sig := fn.Signature(); {
			case fn.Name() == b.Maker && sig.Params().Len() > 0 && typeis.Context(sig.Params().At(0).Type()):
				return step.Arg(0), false
			case flow.ID(fn).Recv == b.Builder:
				return from(step.Recv, depth+1) // txn.If(...): the builder it was called on
			}
		}
		return nil, false
	}
	ctx, _ := from(s.Recv, 0)
	return ctx
}
