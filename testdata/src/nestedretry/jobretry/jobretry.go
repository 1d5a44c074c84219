// Package jobretry runs a job step again after a jittered wait. A step marks an error that must
// not be retried with Permanent; Temporary marks one that may be.
package jobretry

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"
)

// Error is a step's error with its verdict.
type Error struct {
	Err       error
	Permanent bool
}

func (e *Error) Error() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Permanent marks err as not to be retried.
func Permanent(err error) *Error { return &Error{Err: err, Permanent: true} }

// Temporary marks err as worth another attempt.
func Temporary(err error) *Error { return &Error{Err: err} }

func isPermanent(err error) bool {
	e, ok := err.(*Error)
	if !ok {
		return false
	}
	return e.Permanent
}

// Do runs step up to attempts times, until it succeeds or returns a permanent error.
func Do(ctx context.Context, attempts int, step func(context.Context) error) error {
	var err error
	for i := range attempts {
		if err = step(ctx); err == nil {
			return nil
		}
		if isPermanent(err) {
			return err
		}
		slog.Debug("step failed", "attempt", i+1, "err", err)
		wait := time.Duration(1<<i)*100*time.Millisecond + time.Duration(rand.Int64N(int64(100*time.Millisecond)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return err
}
