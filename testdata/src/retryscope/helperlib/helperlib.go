// Package helperlib defines in-house retry helpers that the model must infer.
package helperlib

import (
	"context"
	"time"

	backoff "github.com/cenkalti/backoff/v4"
)

// Retry calls fn until it succeeds, at most 3 times.
func Retry(ctx context.Context, fn func(context.Context) error) error { // want Retry:`retry helper for parameter \[1\]: attempts=3 wait=fixed deadline=context` Retry:`retries: retry loop at helperlib.go:14, attempts=3`
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
func Twice(fn func(context.Context) error) error { // want Twice:`retry helper for parameter \[0\]: attempts=3` Twice:`retries: retry callback \(retryscope/helperlib.Retry\)`
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
