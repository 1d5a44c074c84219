// Package iters: a retry iterator is reported where its loop waits, not at each range over it.
package iters

import (
	"context"
	"iter"
	"math/rand/v2"
	"net/http"
	"time"
)

// attempts yields n attempts, waiting a fixed interval between them.
func attempts(ctx context.Context, n int, interval time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(interval): // related "iters.go:15: retry loop" // want `retry iterator waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			}
		}
	}
}

func get(ctx context.Context, hc *http.Client, url string) error {
	var err error
	for range attempts(ctx, 4, time.Second) {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return err
}

// forever yields attempts with a jittered backoff and no end: the body decides when to stop.
func forever() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(time.Duration(rand.Int64N(int64(time.Second << min(i, 5)))))
		}
	}
}

// The body passes the caller's context on: bounded.
func listen(ctx context.Context, hc *http.Client, url string) {
	for range forever() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return
		}
		if resp, err := hc.Do(req); err == nil {
			resp.Body.Close()
			return
		}
	}
}

// Nothing bounds this one.
func poll(hc *http.Client, url string) {
	for range forever() { // related "iters.go:72: retry iterator loop" // want `loop over forever retries for ever \(no attempt cap, no deadline\); count the attempts in the body and stop after a few`
		if resp, err := hc.Get(url); err == nil {
			resp.Body.Close()
			return
		}
	}
}
