package depmap

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// dependency names what a remote call talks to, as a person would, and its kind: the host of
// a constant URL, an SDK's service, a gRPC service, the SQL package; otherwise the kind of
// call and the package that makes it.
func (m *mapper) dependency(call ssa.CallInstruction, rc *remote.Call) (name, kind string, unnamed bool) {
	kind = rc.Kind.String()
	here := m.pass.Pkg.Path()
	switch rc.Kind {
	case remote.HTTP:
		if s := m.rem.SendOf(call); s != nil && s.Host != "" {
			return s.Host, kind, false
		}
		return "HTTP API called from " + here, kind, true
	case remote.SDK:
		if rc.Func != nil && rc.Func.Pkg() != nil {
			if svc := knowledge.Service(rc.Func.Pkg().Path()); svc != "" {
				return svc, kind, false
			}
			return rc.Func.Pkg().Name() + " SDK", kind, false
		}
	case remote.GRPC:
		if name := m.stubService(call); name != "" {
			return name, kind, false
		}
		if svc := grpcService(rc.Func); svc != "" {
			return "gRPC " + svc, kind, false
		}
		if svc := invokedService(call, rc.Func); svc != "" {
			return "gRPC " + svc, kind, false
		}
		return "gRPC services called from " + here, kind, false
	case remote.SQL:
		if rc.Func != nil && rc.Func.Pkg() != nil {
			return "SQL database via " + rc.Func.Pkg().Path(), kind, false
		}
		return "SQL database", kind, false
	case remote.Dial:
		return "network connections from " + here, kind, false
	}
	return kind + " calls from " + here, kind, false
}

// grpcService names the service of a generated client stub's method: payments.v1.Payments for
// a method of PaymentsClient in a package whose name is payments (the proto package is not in
// the Go types; the Go package's name stands for it). "" for a call that is not a stub's.
func grpcService(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	id := flow.ID(fn)
	svc, ok := strings.CutSuffix(id.Recv, "Client")
	if !ok || svc == "" || fn.Pkg().Path() == "google.golang.org/grpc" {
		return ""
	}
	return fn.Pkg().Name() + "." + strings.ToUpper(svc[:1]) + svc[1:] // the stub's type is unexported
}

// invokedService names the service of a call of ClientConn's Invoke or NewStream (what
// generated stubs call) from its constant method name, "/payments.v1.Payments/Charge":
// "payments.v1.Payments"; "" otherwise.
func invokedService(call ssa.CallInstruction, fn *types.Func) string {
	if fn == nil || fn.Name() != "Invoke" && fn.Name() != "NewStream" {
		return ""
	}
	site := flow.NewSite(call.Common(), fn)
	arg := 1 // Invoke(ctx, method, ...)
	if fn.Name() == "NewStream" {
		arg = 2 // NewStream(ctx, desc, method, ...)
	}
	method, ok := flow.StringConst(site.Arg(arg))
	if !ok {
		return ""
	}
	svc, _, ok := strings.Cut(strings.TrimPrefix(method, "/"), "/")
	if !ok {
		return ""
	}
	return svc
}

// stubService names the service a call of a generated stub's method talks to, from the
// method's own path to its Invoke or NewStream (in this package, or through its fact): the
// proto service's full name, which the Go names do not carry.
func (m *mapper) stubService(call ssa.CallInstruction) string {
	fns := m.impls.Of(call.Common()) // a stub interface of this package
	if fn := call.Common().StaticCallee(); fn != nil {
		fns = append(fns, m.source(fn))
	}
	for _, fn := range fns {
		paths := m.pathsOf(fn)
		for _, r := range paths {
			if r.Kind == remote.GRPC.String() && len(r.Path.Layers) == 0 {
				return r.Dep
			}
		}
	}
	return ""
}
