package attempts

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
)

// withRetry is an in-house helper: it calls op until it succeeds, a permanent error comes
// back, or the attempts run out, waiting with jitter in a select on the context.
func withRetry(ctx context.Context, attempts int, op func(ctx context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		if !errors.Is(err, errRetryable) {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(backoff(i)):
		}
	}
	return fmt.Errorf("after %d attempts: %w", attempts, err)
}

// tries is a retry iterator: it yields attempt numbers, waiting between them.
func tries(ctx context.Context, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
			t := time.NewTimer(backoff(i))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}
}

// ---- Reported ----

// A form-encoded request; the key comes after two error checks.
func (c *Client) Transfer(ctx context.Context, from, to string, amount int64) error {
	form := url.Values{"from": {from}, "to": {to}, "amount": {fmt.Sprint(amount)}}
	return withRetry(ctx, 4, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/transfers", strings.NewReader(form.Encode()))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+c.token)
		id, err := uuid.NewRandom() // related "helpers.go:60: retry callback" "helpers.go:71: sent as header \"Idempotency-Key\"" // want `uuid\.NewRandom makes a new idempotency key per attempt of withRetry: retries cannot be deduplicated; move it out`
		if err != nil {
			return fmt.Errorf("transfer key: %w", err)
		}
		req.Header.Set("Idempotency-Key", id.String())
		resp, err := c.http.Do(req)
		if err != nil {
			c.logf("transfer %s->%s: %v", from, to, err)
			return fmt.Errorf("%w: %v", errRetryable, err)
		}
		defer resp.Body.Close()
		return classify(resp)
	})
}

// A range over a retry iterator with a labelled break on success.
func (c *Client) Subscribe(ctx context.Context, plan string) error {
	var lastErr error
loop:
	for attempt := range tries(ctx, 5) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/subscriptions?plan="+plan, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "helpers.go:86: retry iterator loop" "helpers.go:92: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the loop over tries; move it out`
		resp, err := c.http.Do(req)
		if err != nil {
			log.Printf("subscribe: attempt %d: %v", attempt, err)
			lastErr = err
			continue
		}
		resp.Body.Close()
		switch err := classify(resp); {
		case err == nil:
			lastErr = nil
			break loop
		case errors.Is(err, errRetryable):
			lastErr = err
		default:
			return err
		}
	}
	return lastErr
}

// ---- Not reported ----

func (c *Client) TransferKeyed(ctx context.Context, from, to string, amount int64) error {
	form := url.Values{"from": {from}, "to": {to}, "amount": {fmt.Sprint(amount)}}
	key := uuid.NewString()
	return withRetry(ctx, 4, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/transfers", strings.NewReader(form.Encode()))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Request-ID", uuid.NewString())
		resp, err := c.http.Do(req)
		if err != nil {
			return fmt.Errorf("%w: %v", errRetryable, err)
		}
		defer resp.Body.Close()
		return classify(resp)
	})
}

func (c *Client) SubscribeKeyed(ctx context.Context, plan string) error {
	key := uuid.NewString()
	var lastErr error
	for attempt := range tries(ctx, 5) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/subscriptions?plan="+plan, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.http.Do(req)
		if err != nil {
			log.Printf("subscribe: attempt %d: %v", attempt, err)
			lastErr = err
			continue
		}
		resp.Body.Close()
		if lastErr = classify(resp); lastErr == nil {
			return nil
		}
	}
	return lastErr
}
