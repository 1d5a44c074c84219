package retryscope

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// go-grpc-middleware's retry interceptor (knowledge.InterceptorOf), installed on a gRPC
// connection: every unary call on it is retried up to WithMax attempts (zero by default: none;
// remote names the interceptor only when its count allows more than one), waiting
// BackoffLinearWithJitter(50 ms, 10 %) unless WithBackoff says otherwise, until the call's
// context ends. A call through such a connection is a Client scope, configured where the
// interceptor is made.
var grpcRetry = &library{Library: knowledge.GRPCRetry}

// grpcClientScope returns the Client scope of a unary gRPC call whose connection retries it
// (remote.Call.Retrier), or nil.
func (st *state) grpcClientScope(call ssa.CallInstruction, fn *types.Func) *Scope {
	rc := st.rem.Of(call)
	if rc == nil || rc.Kind != remote.GRPC || rc.Retrier == nil {
		return nil
	}
	c := &site{Site: flow.Site{Args: rc.Retrier.Call.Args}, call: call, stores: st.stores}
	s := &Scope{Kind: Client, Func: fn, Helper: helperName(fn), Through: "the gRPC retry interceptor"}
	grpcRetry.summarise(c, &grpcRetry.Clients[0], s)
	return s
}
