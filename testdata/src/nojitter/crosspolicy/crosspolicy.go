// Package crosspolicy waits between attempts as a policy of another package of the module
// computes: the policy's code says whether the wait is randomised.
package crosspolicy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"

	"nojitter/crosspolicy/backoff"
)

type Event struct {
	Kind string `json:"kind"`
	At   int64  `json:"at"`
}

type Sink struct {
	hc  *http.Client
	url string
}

func (s *Sink) Put(ctx context.Context, ev Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	var lastErr error
	for attempt := 0; attempt < 6; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.url+"/events/"+ev.Kind, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := s.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			err = fmt.Errorf("put event: status %d", resp.StatusCode)
		}
		lastErr = err
		log.Printf("put event %s: attempt %d: %v", ev.Kind, attempt, err)
		time.Sleep(backoff.Exponential(attempt)) // related "crosspolicy.go:33: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	return lastErr
}

// The server says how long to wait: not reported.
func (s *Sink) PutAsTold(ctx context.Context, ev Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.url+"/events/"+ev.Kind, bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := s.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || attempt == 5 {
			return nil
		}
		time.Sleep(backoff.RetryAfter(resp.Header.Get("Retry-After")))
	}
}
