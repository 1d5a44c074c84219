// Package gax is a stub of github.com/googleapis/gax-go/v2 (public signatures only).
package gax

import (
	"context"
	"time"
)

type CallSettings struct{}
type CallOption interface {
	Resolve(cs *CallSettings)
}
type APICall func(context.Context, CallSettings) error
type Retryer interface {
	Retry(err error) (pause time.Duration, shouldRetry bool)
}

func Invoke(ctx context.Context, call APICall, opts ...CallOption) error {
	return call(ctx, CallSettings{})
}
func WithRetry(fn func() Retryer) CallOption { return nil }
