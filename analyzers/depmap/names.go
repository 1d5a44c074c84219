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
func (m *mapper) dependency(call ssa.CallInstruction, rc *remote.Call) (name, kind string) {
	kind = rc.Kind.String()
	here := m.pass.Pkg.Path()
	switch rc.Kind {
	case remote.HTTP:
		if s := m.rem.SendOf(call); s != nil && s.Host != "" {
			return s.Host, kind
		}
		return "HTTP API called from " + here, kind
	case remote.SDK:
		if rc.Func != nil && rc.Func.Pkg() != nil {
			if svc := knowledge.Service(rc.Func.Pkg().Path()); svc != "" {
				return svc, kind
			}
			return rc.Func.Pkg().Name() + " SDK", kind
		}
	case remote.GRPC:
		if svc := grpcService(rc.Func); svc != "" {
			return "gRPC " + svc, kind
		}
		return "gRPC services called from " + here, kind
	case remote.SQL:
		if rc.Func != nil && rc.Func.Pkg() != nil {
			return "SQL database via " + rc.Func.Pkg().Path(), kind
		}
		return "SQL database", kind
	case remote.Dial:
		return "network connections from " + here, kind
	}
	return kind + " calls from " + here, kind
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
