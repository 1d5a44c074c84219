// Package hedged runs a request with hedging: while an attempt is in flight and no answer has
// come within the hedging delay, it starts another; after a failure it starts the next at
// once. The timer bounds how long it waits for an answer before it hedges: it races the
// attempts' results and is no wait between failed attempts, so after a failure nothing waits
// (bounded by MaxAttempts; reported as going round without a wait, not as a fixed one).
package hedged

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type Hedger struct {
	Client      *http.Client
	MaxAttempts int
	Delay       time.Duration
}

func (h *Hedger) Get(ctx context.Context, url string) (*http.Response, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		resp *http.Response
		err  error
	}
	results := make(chan result, h.MaxAttempts)
	started, inFlight := 0, 0
	var errs []error
	for { // related "hedged.go:31: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if started < h.MaxAttempts {
			started++
			inFlight++
			go func() {
				req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				if err != nil {
					results <- result{err: err}
					return
				}
				resp, err := h.Client.Do(req)
				select {
				case results <- result{resp, err}:
				case <-ctx.Done():
				}
			}()
		}
		if started >= h.MaxAttempts && inFlight == 0 {
			return nil, errors.Join(errs...)
		}
		var timer *time.Timer
		var timerC <-chan time.Time
		if started < h.MaxAttempts {
			timer = time.NewTimer(h.Delay)
			timerC = timer.C
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return nil, ctx.Err()
		case r := <-results:
			if timer != nil {
				timer.Stop()
			}
			inFlight--
			if r.err == nil && r.resp.StatusCode < 500 {
				return r.resp, nil
			}
			if r.err == nil {
				r.resp.Body.Close()
				r.err = errors.New(r.resp.Status)
			}
			errs = append(errs, r.err)
		case <-timerC:
		}
	}
}
