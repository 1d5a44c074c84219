package knowledge

import (
	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// ContextWrappers are functions that return a context derived from one of their arguments (by
// index, receiver excluded) without adding a deadline: the walk goes on through that argument.
var ContextWrappers = map[flow.FuncID]int{
	{Pkg: ContextPath, Name: "WithCancel"}:                                        0,
	{Pkg: ContextPath, Name: "WithCancelCause"}:                                   0,
	{Pkg: ContextPath, Name: "WithValue"}:                                         0,
	{Pkg: "os/signal", Name: "NotifyContext"}:                                     0,
	{Pkg: GRPCPath + "/metadata", Name: "AppendToOutgoingContext"}:                0,
	{Pkg: GRPCPath + "/metadata", Name: "NewOutgoingContext"}:                     0,
	{Pkg: "golang.org/x/sync/errgroup", Name: "WithContext"}:                      0,
	{Pkg: "go.opentelemetry.io/otel/trace", Name: "ContextWithSpan"}:              0,
	{Pkg: "go.opentelemetry.io/otel/trace", Recv: "Tracer", Name: "Start"}:        0,
	{Pkg: "go.opentelemetry.io/otel/baggage", Name: "ContextWithBaggage"}:         0,
	{Pkg: "go.opentelemetry.io/otel/trace", Name: "ContextWithSpanContext"}:       0,
	{Pkg: "go.opentelemetry.io/otel/trace", Name: "ContextWithRemoteSpanContext"}: 0,
}
