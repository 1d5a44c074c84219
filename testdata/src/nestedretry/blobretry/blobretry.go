// Package blobretry runs an attempt again while the caller's predicate calls its error
// retriable, backing off with jitter up to a ceiling, for a bounded number of attempts.
package blobretry

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"
)

// Retriable says whether an error is worth another attempt.
type Retriable func(error) bool

// WithBackoff runs attempt up to 10 times, backing off exponentially between attempts.
func WithBackoff[T any](ctx context.Context, desc string, attempt func() (T, error), retriable Retriable) (T, error) {
	return run(ctx, desc, attempt, retriable, 100*time.Millisecond, 10*time.Second, 10, 2)
}

// WithBackoffNoValue is WithBackoff for attempts that return only an error.
func WithBackoffNoValue(ctx context.Context, desc string, attempt func() error, retriable Retriable) error {
	_, err := WithBackoff(ctx, desc, func() (struct{}, error) {
		return struct{}{}, attempt()
	}, retriable)
	return err
}

// Periodically runs attempt up to count times, interval apart.
func Periodically[T any](ctx context.Context, interval time.Duration, count int, desc string, attempt func() (T, error), retriable Retriable) (T, error) {
	return run(ctx, desc, attempt, retriable, interval, interval, count, 1)
}

func run[T any](ctx context.Context, desc string, attempt func() (T, error), retriable Retriable, initial, ceiling time.Duration, count int, factor float64) (T, error) {
	var zero T
	var last error
	delay := initial
	for i := 0; i < count; i++ {
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		v, err := attempt()
		if err == nil {
			return v, nil
		}
		last = err
		if !retriable(err) {
			return v, err
		}
		slog.DebugContext(ctx, "attempt failed", "op", desc, "attempt", i, "err", err)
		wait := delay/2 + rand.N(delay/2+1)
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(wait):
		}
		delay = min(time.Duration(float64(delay)*factor), ceiling)
	}
	return zero, fmt.Errorf("%s: giving up after %d attempts: %w", desc, count, last)
}
