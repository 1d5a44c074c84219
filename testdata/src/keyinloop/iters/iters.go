// Package iters makes keys inside ranges over retry iterators (range over func).
package iters

import (
	"context"
	"iter"
	"net/http"
	"time"

	"github.com/google/uuid"
)

var client = &http.Client{Timeout: 10 * time.Second}

// attempts yields up to n attempts with a growing wait between them.
func attempts(ctx context.Context, n int) iter.Seq[int] {
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

// values walks a slice: not a retry iterator.
func values(reqs []*http.Request) iter.Seq[*http.Request] {
	return func(yield func(*http.Request) bool) {
		for _, r := range reqs {
			if !yield(r) {
				return
			}
		}
	}
}

func post(ctx context.Context, key string) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.example.com/charges", nil)
	req.Header.Set("Idempotency-Key", key)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- Reported ----

func keyInIteratorLoop(ctx context.Context) error {
	var err error
	for range attempts(ctx, 3) {
		key := uuid.NewString() // related "iters.go:56: retry iterator loop" "iters.go:58: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per attempt of the loop over attempts; move it out`
		if err = post(ctx, key); err == nil {
			break
		}
	}
	return err
}

func labelledIteratorLoop(ctx context.Context) (err error) {
retry:
	for attempt := range attempts(ctx, 5) {
		_ = attempt
		key := uuid.NewString() // related "iters.go:67: retry iterator loop" "iters.go:70: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per attempt of the loop over attempts; move it out`
		switch err = post(ctx, key); err {
		case nil:
			break retry
		}
	}
	return err
}

// ---- Not reported ----

func keyBeforeIteratorLoop(ctx context.Context) error {
	key := uuid.NewString()
	var err error
	for range attempts(ctx, 3) {
		if err = post(ctx, key); err == nil {
			break
		}
	}
	return err
}

// One request per element: every element is its own operation with its own key.
func keyPerElement(ctx context.Context, reqs []*http.Request) {
	for r := range values(reqs) {
		r.Header.Set("Idempotency-Key", uuid.NewString())
		if resp, err := client.Do(r); err == nil {
			resp.Body.Close()
			break
		}
	}
}
