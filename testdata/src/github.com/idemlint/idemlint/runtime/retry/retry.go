// Package retry is a stub of this project's runtime/retry, for the analyzers' tests.
package retry

import (
	"context"
	"time"
)

type Jitter uint8

const (
	JitterFull Jitter = iota
	JitterEqual
	JitterDecorrelated
	JitterProportional
)

type Policy struct {
	MaxAttempts    int
	BaseDelay      time.Duration
	MaxDelay       time.Duration
	Timeout        time.Duration
	AttemptTimeout time.Duration
	Jitter         Jitter
	Idempotent     bool
	Classify       func(err error) bool
}

type Attempt struct {
	Number int
	Prev   error
}

func Do(ctx context.Context, p Policy, fn func(ctx context.Context, a Attempt) error) error {
	return fn(ctx, Attempt{})
}
func DoValue[T any](ctx context.Context, p Policy, fn func(ctx context.Context, a Attempt) (T, error)) (T, error) {
	return fn(ctx, Attempt{})
}
func FullJitter(d time.Duration) time.Duration { return d }
func Permanent(err error) error                { return err }
func Transient(err error) error                { return err }
func IsRetryable(err error) bool               { return err != nil }
func IsTransient(err error) bool               { return err != nil }
