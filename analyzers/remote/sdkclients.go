package remote

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
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
