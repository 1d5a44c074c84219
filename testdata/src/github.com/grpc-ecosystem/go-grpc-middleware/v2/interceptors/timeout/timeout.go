// Package timeout is a stub of github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout:
// the public signatures of the real package and no behaviour. Its interceptor gives every unary
// call a deadline.
package timeout

import (
	"time"

	"google.golang.org/grpc"
)

func UnaryClientInterceptor(timeout time.Duration) grpc.UnaryClientInterceptor { return nil }
