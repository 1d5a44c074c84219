package knowledge

import "github.com/idemlint/idemlint/analyzers/internal/flow"

// gRPC client interceptors that give every unary call on the connection they are installed on
// (grpc.WithUnaryInterceptor, WithChainUnaryInterceptor) a deadline of their own, whatever the
// caller's context. Streams are not theirs to bound.
//
// go-grpc-middleware's retry interceptor (v1 and v2) bounds each attempt, the first one
// included, with WithPerRetryTimeout; but with no WithMax above zero (its default is zero) it
// passes the call through untouched. Its timeout interceptor (v2) bounds every call.

// A DeadlineInterceptor is a constructor of such an interceptor, and how its options say so.
type DeadlineInterceptor struct {
	Name string // for messages: "grpc_retry.WithPerRetryTimeout"
	// Timeout and Count are the option functions (of the same package) that set the
	// per-call timeout and the attempt count, both needed; empty when the constructor's own
	// argument is the timeout.
	Timeout, Count string
}

const (
	grpcRetryV1   = "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	grpcRetryV2   = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	grpcTimeoutV2 = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
)

var deadlineInterceptors = map[flow.FuncID]DeadlineInterceptor{
	{Pkg: grpcRetryV1, Name: "UnaryClientInterceptor"}:   {Name: "grpc_retry.WithPerRetryTimeout", Timeout: "WithPerRetryTimeout", Count: "WithMax"},
	{Pkg: grpcRetryV2, Name: "UnaryClientInterceptor"}:   {Name: "retry.WithPerRetryTimeout", Timeout: "WithPerRetryTimeout", Count: "WithMax"},
	{Pkg: grpcTimeoutV2, Name: "UnaryClientInterceptor"}: {Name: "timeout.UnaryClientInterceptor"},
}

// DeadlineInterceptorOf returns the interceptor constructor id is, if it is one.
func DeadlineInterceptorOf(id flow.FuncID) (DeadlineInterceptor, bool) {
	d, ok := deadlineInterceptors[id]
	return d, ok
}
