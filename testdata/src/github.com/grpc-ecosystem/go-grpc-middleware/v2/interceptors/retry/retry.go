// Package retry is a stub of github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry:
// the public signatures of the real package and no behaviour.
package retry

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

func UnaryClientInterceptor(optFuncs ...CallOption) grpc.UnaryClientInterceptor { return nil }
func WithMax(maxRetries uint) CallOption                                        { return CallOption{} }
func WithPerRetryTimeout(timeout time.Duration) CallOption                      { return CallOption{} }
func WithCodes(retryCodes ...codes.Code) CallOption                             { return CallOption{} }
