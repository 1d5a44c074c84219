package knowledge

import "github.com/idemlint/idemlint/analyzers/internal/flow"

// gRPC client interceptors, installed on a connection (grpc.WithUnaryInterceptor,
// WithChainUnaryInterceptor), that retry every unary call on it or give each a deadline of
// their own, whatever the caller's context. Streams are not theirs.
//
// go-grpc-middleware's retry interceptor (v1 and v2) makes up to WithMax attempts (its default
// is zero: it passes the call through untouched, once), waiting BackoffLinearWithJitter(50ms,
// 0.1) unless WithBackoff says otherwise, on the codes WithCodes lists (Unavailable and
// ResourceExhausted by default); WithPerRetryTimeout bounds each attempt, the first one
// included. Its timeout interceptor (v2) bounds every call.

// An Interceptor is a constructor of such an interceptor, and how its options configure it.
type Interceptor struct {
	Name string // for messages: "grpc_retry.WithPerRetryTimeout"
	// Timeout and Count are the option functions (of the same package) that set the
	// per-call timeout and the attempt count, both needed for a deadline; empty when the
	// constructor's own argument is the timeout.
	Timeout, Count string
	Retries        bool // it retries failed calls when Count sets more than one attempt
}

const (
	grpcRetryV1   = "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	grpcRetryV2   = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	grpcTimeoutV2 = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
)

var interceptors = map[flow.FuncID]Interceptor{
	{Pkg: grpcRetryV1, Name: "UnaryClientInterceptor"}:   {Name: "grpc_retry.WithPerRetryTimeout", Timeout: "WithPerRetryTimeout", Count: "WithMax", Retries: true},
	{Pkg: grpcRetryV2, Name: "UnaryClientInterceptor"}:   {Name: "retry.WithPerRetryTimeout", Timeout: "WithPerRetryTimeout", Count: "WithMax", Retries: true},
	{Pkg: grpcTimeoutV2, Name: "UnaryClientInterceptor"}: {Name: "timeout.UnaryClientInterceptor"},
}

// InterceptorOf returns the interceptor constructor id is, if it is one.
func InterceptorOf(id flow.FuncID) (Interceptor, bool) {
	d, ok := interceptors[id]
	return d, ok
}

// GRPCRetryPackages are the packages of go-grpc-middleware's retry interceptor.
var GRPCRetryPackages = []string{grpcRetryV1, grpcRetryV2}

// GRPCRetry is the retry interceptor as a retry library: a call through a connection with it
// is a client that retries.
var GRPCRetry = &Library{
	CapHint: "add grpc_retry.WithMax(4)",
	Name:    "go-grpc-middleware retry interceptor",
	Paths:   GRPCRetryPackages,
	Clients: []Entry{{Recv: "*", Config: []int{0}, Ctx: -1}},
	// The context bounds the retries, the caller's to choose at each call: no deadline claim.
	Defaults: Summary{Bound{Kind: BoundUnknown}, WaitJittered, DeadlineUnknown},
	Settings: map[string]Option{
		"WithMax": {Arg: 0, Attempts: AttemptsOf(0).ZeroMeans(Once)},
		"WithBackoff": {Arg: 0, WaitBy: map[string]WaitKind{
			"BackoffLinear": WaitFixed, "BackoffExponential": WaitBackoff,
			"BackoffLinearWithJitter": WaitJittered, "BackoffExponentialWithJitter": WaitJittered,
			"BackoffExponentialWithJitterBounded": WaitJittered,
		}},
		"WithPerRetryTimeout": {Arg: 0},
		"WithCodes":           {Arg: 0}, // which codes it retries
	},
}
