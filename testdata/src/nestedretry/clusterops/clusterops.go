// Package clusterops runs an operation until it succeeds or a timeout passes, with jittered
// waits. The operation says what to do with each error it returns: Halt ends the retries, Continue
// asks for another attempt. An operation that halts on every failure of its call polls for a
// state; it does not retry the call.
package clusterops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"
)

// Err is an operation's verdict on an error.
type Err struct {
	Err  error
	Halt bool
}

func (e *Err) Error() string { return e.Err.Error() }

func (e *Err) Unwrap() error { return e.Err }

// Halt ends the retries with err.
func Halt(err error) *Err { return &Err{err, true} }

// Continue asks for another attempt after err.
func Continue(err error) *Err { return &Err{err, false} }

// Continues asks for another attempt, saying why.
func Continues(msg string) *Err { return Continue(fmt.Errorf("%s", msg)) }

// Option configures a Retrier.
type Option func(*config)

type config struct {
	timeout     time.Duration
	shouldRetry func(error) bool
}

// WithTimeout bounds the retries.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithRetryFunc sets which errors are retried.
func WithRetryFunc(f func(error) bool) Option { return func(c *config) { c.shouldRetry = f } }

// Retrier runs an operation again.
type Retrier[T any] struct{ cfg config }

// New makes a Retrier; without WithRetryFunc it retries every error.
func New[T any](opts ...Option) Retrier[T] {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return Retrier[T]{c}
}

func (r Retrier[T]) retry(err error) bool {
	if r.cfg.shouldRetry == nil {
		return err != nil
	}
	return r.cfg.shouldRetry(err)
}

func backoff(attempt int) time.Duration {
	wait := min(time.Duration(attempt)*time.Second, 10*time.Second)
	return wait + time.Duration(rand.Int64N(int64(700*time.Millisecond)))
}

// Run runs fn until it succeeds, the retry function refuses its error, or the timeout passes.
func (r Retrier[T]) Run(ctx context.Context, fn func(context.Context) (*T, error)) (*T, error) {
	timeout := r.cfg.timeout
	if timeout == 0 {
		timeout = 20 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last error
	for attempt := 1; ; attempt++ {
		v, err := fn(ctx)
		if err == nil {
			return v, nil
		}
		if !r.retry(err) {
			slog.Debug("not retried", "err", err)
			return nil, err
		}
		last = err
		t := time.NewTimer(backoff(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("timed out: %w", last)
		case <-t.C:
		}
	}
}

func shouldRetry(err error) bool {
	if err == nil {
		return false
	}
	e := err.(*Err)
	if e == nil {
		return false
	}
	return !e.Halt
}

// Poll calls fn until it returns a result, halts, or timeout passes.
func Poll[T any](ctx context.Context, timeout time.Duration, fn func() (*T, *Err)) (*T, error) {
	return New[T](WithTimeout(timeout), WithRetryFunc(shouldRetry)).Run(ctx, func(context.Context) (*T, error) {
		v, err := fn()
		if err != nil {
			return v, err
		}
		return v, nil
	})
}

// Wait calls fn until it returns nil, halts, or timeout passes.
func Wait(ctx context.Context, timeout time.Duration, fn func() *Err) error {
	_, err := Poll[struct{}](ctx, timeout, func() (*struct{}, *Err) { return nil, fn() })
	return err
}

// ErrNotFound is what IsMissing matches.
var ErrNotFound = errors.New("not found")
