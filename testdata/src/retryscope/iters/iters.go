// Package iters defines retry iterators (range over func) and ranges over them.
package iters

import (
	"context"
	"iter"
	"math/rand"
	"time"
)

func send(ctx context.Context) error { return nil }

// Attempts yields up to n attempts, backing off between them until ctx is done.
func Attempts(ctx context.Context, n int) iter.Seq[int] { // want Attempts:"retry iterator: attempts=variable wait=backoff deadline=context"
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
			select {
			case <-time.After(time.Duration(1<<i) * 100 * time.Millisecond):
			case <-ctx.Done():
				return
			}
		}
	}
}

// Jittered yields five attempts with a random wait between them.
func Jittered() iter.Seq[int] { // want Jittered:"retry iterator: attempts=5 wait=jittered deadline=none"
	return func(yield func(int) bool) {
		for i := 0; i < 5; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
		}
	}
}

// Default builds on Attempts.
func Default(ctx context.Context) iter.Seq[int] { // want Default:"retry iterator: attempts=variable wait=backoff deadline=context"
	return Attempts(ctx, 4)
}

// Policy has a method that returns a retry iterator.
type Policy struct{ Max int }

func (p *Policy) Tries(ctx context.Context) iter.Seq2[int, error] { // want Tries:"retry iterator: attempts=variable wait=fixed deadline=context"
	return func(yield func(int, error) bool) {
		for i := 0; i < p.Max; i++ {
			if !yield(i, ctx.Err()) {
				return
			}
			time.Sleep(time.Second)
		}
	}
}

// Values walks data: it never waits, so it is no retry iterator.
func Values(items []string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, it := range items {
			if !yield(it) {
				return
			}
		}
	}
}

// Every ticks forever at a fixed interval: periodic work, not retry.
func Every(d time.Duration) iter.Seq[time.Time] {
	return func(yield func(time.Time) bool) {
		t := time.NewTicker(d)
		defer t.Stop()
		for now := range t.C {
			if !yield(now) {
				return
			}
		}
	}
}

// Relay yields what a channel delivers: not retry.
func Relay(ch <-chan string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for {
			select {
			case s := <-ch:
				if !yield(s) {
					return
				}
			case <-time.After(time.Second):
			}
		}
	}
}

func use(ctx context.Context) error { // want use:"retries: retry iterator loop \\(retryscope/iters.Attempts\\) at iters.go:[0-9]+, attempts=variable"
	var err error
	for range Attempts(ctx, 3) { // want `retry iterator loop \(retryscope/iters.Attempts\): attempts=variable wait=backoff deadline=context`
		if err = send(ctx); err == nil {
			break
		}
	}
	for attempt := range Jittered() { // want `retry iterator loop \(retryscope/iters.Jittered\): attempts=5 wait=jittered deadline=context`
		_ = attempt
		if err = send(ctx); err == nil {
			return nil
		}
	}
	seq := Default(ctx)
outer:
	for range seq { // want `retry iterator loop \(retryscope/iters.Default\): attempts=variable wait=backoff deadline=context`
		switch err = send(ctx); err {
		case nil:
			break outer
		}
	}
	p := &Policy{Max: 3}
	for _, prev := range p.Tries(ctx) { // want `retry iterator loop \(retryscope/iters.Policy.Tries\): attempts=variable wait=fixed deadline=context`
		if prev != nil {
			return prev
		}
		if err = send(ctx); err == nil {
			break
		}
	}
	for range func(yield func(int) bool) { // want `retry iterator loop: attempts=3 wait=fixed deadline=none`
		for i := range 3 {
			if !yield(i) {
				return
			}
			time.Sleep(time.Second)
		}
	} {
		if err = send(context.Background()); err == nil {
			break
		}
	}
	return err
}

// Pages fetches one page per round, pacing its requests: it yields data, not attempts.
func Pages(ctx context.Context, max int) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := 0; i < max; i++ {
			page, err := fetch(ctx, i)
			if err != nil || !yield(page) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

func fetch(ctx context.Context, i int) (string, error) { return "", nil }

// Not retry: data, pages, a ticker, a channel, and a body that never leaves.
func notRetry(ctx context.Context, items []string, ch <-chan string) {
	for it := range Values(items) {
		if send(ctx) == nil {
			_ = it
			break
		}
	}
	for p := range Pages(ctx, 10) {
		if p == "wanted" {
			break
		}
	}
	for range Every(time.Second) {
		if send(ctx) == nil {
			break
		}
	}
	for range Relay(ch) {
		if send(ctx) == nil {
			break
		}
	}
	for i := range Attempts(ctx, 3) {
		_ = i
		_ = send(ctx)
	}
}

// Do is a retry helper built on a retry iterator.
func Do(ctx context.Context, fn func(context.Context) error) (err error) { // want Do:"retry helper for parameter \\[1\\]: attempts=variable wait=backoff deadline=context" Do:"retries: retry iterator loop"
	for range Attempts(ctx, 3) { // want `retry iterator loop \(retryscope/iters.Attempts\): attempts=variable wait=backoff deadline=context`
		if err = fn(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A long poll that reconnects when its stream ends: it leaves on failure and goes round after
// a success, which repeats work rather than retrying it.
func listen(ctx context.Context, events chan<- error) {
	for range Attempts(ctx, 100) {
		err := send(ctx)
		if err != nil {
			events <- err
			return
		}
	}
}
