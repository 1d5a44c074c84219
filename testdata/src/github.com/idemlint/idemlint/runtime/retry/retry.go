// Package retry is a stub of this project's runtime/retry, for the analyzers' tests.
package retry

import (
	"context"
	"time"
)

type Policy struct {
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
}

type Attempt struct{ N int }

func Do(ctx context.Context, p Policy, fn func(ctx context.Context, a Attempt) error) error {
	return fn(ctx, Attempt{})
}
func DoValue[T any](ctx context.Context, p Policy, fn func(ctx context.Context, a Attempt) (T, error)) (T, error) {
	return fn(ctx, Attempt{})
}
func FullJitter(d time.Duration) time.Duration { return d }
