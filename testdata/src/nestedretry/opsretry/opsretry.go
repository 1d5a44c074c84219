// Package opsretry runs an operation again after a fixed sleep, up to a number of retries.
// An action ends the retries by returning a Fatal or a *Permanent error: the helpers return
// it at once.
package opsretry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Fatal marks an error the helpers must not retry.
type Fatal struct {
	Underlying error
}

func (f Fatal) Error() string { return fmt.Sprintf("fatal: %v", f.Underlying) }

func (f Fatal) Unwrap() error { return f.Underlying }

// Permanent marks an error DoContext must not retry.
type Permanent struct {
	Err error
}

func (p *Permanent) Error() string { return "permanent: " + p.Err.Error() }

func (p *Permanent) Unwrap() error { return p.Err }

// Retryable wraps an error the helpers retry.
type Retryable struct {
	Err error
}

func (r Retryable) Error() string { return "retryable: " + r.Err.Error() }

// Exhausted is returned when every retry failed.
type Exhausted struct {
	What    string
	Retries int
}

func (e Exhausted) Error() string { return fmt.Sprintf("%s: still failing after %d retries", e.What, e.Retries) }

// Do runs action until it succeeds or returns a Fatal error, at most retries+1 times.
func Do(log *slog.Logger, what string, retries int, sleep time.Duration, action func() error) error {
	_, err := DoValue(log, what, retries, sleep, func() (any, error) { return nil, action() })
	return err
}

// DoValue is Do for an action that returns a value.
func DoValue(log *slog.Logger, what string, retries int, sleep time.Duration, action func() (any, error)) (any, error) {
	for i := 0; i <= retries; i++ {
		log.Info(what, "attempt", i+1)
		out, err := action()
		if err == nil {
			return out, nil
		}
		if _, fatal := err.(Fatal); fatal {
			log.Info("giving up on fatal error", "what", what, "err", err)
			return out, err
		}
		log.Info("retrying", "what", what, "err", err, "sleep", sleep)
		time.Sleep(sleep)
	}
	return nil, Exhausted{What: what, Retries: retries}
}

// DoContext runs action until it succeeds, returns a *Permanent error, or ctx ends.
func DoContext(ctx context.Context, retries int, sleep time.Duration, action func(context.Context) error) error {
	var err error
	for i := 0; i <= retries; i++ {
		if err = action(ctx); err == nil {
			return nil
		}
		var perm *Permanent
		if errors.As(err, &perm) {
			return perm.Err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sleep):
		}
	}
	return err
}
