// Package retry is a stub of github.com/sethvargo/go-retry (public signatures only).
package retry

import (
	"context"
	"time"
)

type RetryFunc func(ctx context.Context) error
type RetryFuncValue[T any] func(ctx context.Context) (T, error)

type Backoff interface {
	Next() (next time.Duration, stop bool)
}

func Do(ctx context.Context, b Backoff, f RetryFunc) error { return f(ctx) }
func DoValue[T any](ctx context.Context, b Backoff, f RetryFuncValue[T]) (T, error) {
	return f(ctx)
}
func Exponential(ctx context.Context, base time.Duration, f RetryFunc) error { return f(ctx) }
func Fibonacci(ctx context.Context, base time.Duration, f RetryFunc) error   { return f(ctx) }
func Constant(ctx context.Context, t time.Duration, f RetryFunc) error       { return f(ctx) }

func NewExponential(base time.Duration) Backoff                   { return nil }
func NewFibonacci(base time.Duration) Backoff                     { return nil }
func NewConstant(t time.Duration) Backoff                         { return nil }
func WithJitter(j time.Duration, next Backoff) Backoff            { return next }
func WithJitterPercent(j uint64, next Backoff) Backoff            { return next }
func WithFullJitter(next Backoff) Backoff                         { return next }
func WithMaxRetries(max uint64, next Backoff) Backoff             { return next }
func WithCappedDuration(cap time.Duration, next Backoff) Backoff  { return next }
func WithMaxDuration(timeout time.Duration, next Backoff) Backoff { return next }
func RetryableError(err error) error                              { return err }
