// Package helperlib defines in-house retry helpers that the model must infer.
package helperlib

import (
	"context"
	"time"

	backoff "github.com/cenkalti/backoff/v4"
)

// Retry calls fn until it succeeds, at most 3 times.
func Retry(ctx context.Context, fn func(context.Context) error) error { // want Retry:`retry helper for parameter \[1\]: attempts=3 wait=fixed deadline=context` Retry:`retries: retry loop at helperlib.go:14, attempts=3` Retry:`waits: fixed`
	var err error
	for i := 0; i < 3; i++ { // want `retry loop: attempts=3 wait=fixed deadline=context`
		if err = fn(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// WithBackoff hands its function to a library helper inside a closure.
func WithBackoff(op func() error) error { // want WithBackoff:`retry helper for parameter \[0\]: attempts=unbounded wait=jittered deadline=elapsed` WithBackoff:`retries: retry callback`
	return backoff.Retry(func() error { return op() }, backoff.NewExponentialBackOff()) // want `retry callback \(github.com/cenkalti/backoff/v4.Retry\): attempts=unbounded wait=jittered deadline=elapsed`
}

// Twice builds on Retry: a helper of a helper.
func Twice(fn func(context.Context) error) error { // want Twice:`retry helper for parameter \[0\]: attempts=3` Twice:`retries: retry callback \(retryscope/helperlib.Retry\)` Twice:`waits: fixed`
	return Retry(context.Background(), fn) // want `retry callback \(retryscope/helperlib.Retry\): attempts=3 wait=fixed deadline=context`
}

// Once calls fn once: not a helper.
func Once(fn func() error) error {
	return fn()
}

// Each calls fn for every item: iteration, not a helper.
func Each(items []string, fn func(string) error) error {
	for _, it := range items {
		if err := fn(it); err != nil {
			return err
		}
	}
	return nil
}

type Client struct{}

// Do is a method helper.
func (c *Client) Do(ctx context.Context, fn func() error) error { // want Do:`retry helper for parameter \[1\]: attempts=5 wait=none deadline=none` Do:`retries: retry loop`
	var err error
	for range 5 { // want `retry loop: attempts=5 wait=none deadline=none`
		if err = fn(); err == nil {
			break
		}
	}
	return err
}

func withTimeout(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }

// Retries calls its function through a wrapper that calls it once.
func Retries(ctx context.Context, fn func(context.Context) error) error { // want Retries:`retry helper for parameter \[1\]: attempts=3` Retries:`retries: retry loop`
	var err error
	for i := 0; i < 3; i++ { // want `retry loop: attempts=3 wait=none deadline=context`
		err = withTimeout(ctx, func(ctx context.Context) error { return fn(ctx) })
		if err == nil {
			return nil
		}
	}
	return err
}

// Poll retries check and tells progress to notify, which is not retried: Poll is a helper for
// check only.
func Poll(ctx context.Context, check func(context.Context) (bool, error), notify func(string)) error { // want Poll:`retry helper for parameter \[1\]` Poll:`retries: retry loop` Poll:`waits: fixed`
	for { // want `retry loop: attempts=unbounded wait=fixed deadline=none`
		done, err := check(ctx)
		if notify != nil {
			notify("checked")
		}
		if err == nil && done {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// Wait wraps Poll for a notification callback only.
func Wait(ctx context.Context, notify func(string)) error { // want Wait:`retries: retry callback` Wait:`waits: fixed`
	return Poll(ctx, func(ctx context.Context) (bool, error) { return true, nil }, func(s string) { // want `retry callback \(retryscope/helperlib.Poll\)`
		if notify != nil {
			notify(s)
		}
	})
}

// Pause waits a second, or until ctx is done.
func Pause(ctx context.Context) { // want Pause:`waits: fixed`
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
