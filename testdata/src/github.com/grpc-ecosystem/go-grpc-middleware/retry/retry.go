// Package grpc_retry is a stub of github.com/grpc-ecosystem/go-grpc-middleware/retry (v1): the
// public signatures of the real package and no behaviour. The interceptors retry only when
// WithMax gives them a count above zero; WithPerRetryTimeout then bounds every attempt, the
// first one included.
package grpc_retry

import (
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

// CallOption is a grpc.CallOption that configures the interceptor.
type CallOption struct {
	grpc.EmptyCallOption
	applyFunc func(*options)
}

type options struct{}

// BackoffFunc says how long to wait before an attempt.
type BackoffFunc func(attempt uint) time.Duration

func UnaryClientInterceptor(optFuncs ...CallOption) grpc.UnaryClientInterceptor { return nil }
func StreamClientInterceptor(optFuncs ...CallOption) grpc.StreamClientInterceptor {
	return nil
}
func WithMax(maxRetries uint) CallOption                   { return CallOption{} }
func WithPerRetryTimeout(timeout time.Duration) CallOption { return CallOption{} }
func WithCodes(retryCodes ...codes.Code) CallOption        { return CallOption{} }
func WithBackoff(bf BackoffFunc) CallOption                { return CallOption{} }
func Disable() CallOption                                  { return CallOption{} }
func BackoffLinear(waitBetween time.Duration) BackoffFunc  { return nil }
