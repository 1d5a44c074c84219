// Package delaypolicy retries with a backoff policy kept in another package of the module.
package delaypolicy

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"retryscope/delaypolicy/backoff"
)

type Client struct {
	hc     *http.Client
	base   string
	policy backoff.Policy
	log    *slog.Logger
}

func New(base string) *Client {
	return &Client{hc: &http.Client{Timeout: 15 * time.Second}, base: base, policy: backoff.Default, log: slog.Default()}
}

func (c *Client) get(ctx context.Context, path string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return body, resp.StatusCode, err
}

func (c *Client) Status(ctx context.Context, id string) (string, error) { // want Status:`retries: retry loop at delaypolicy.go:44, attempts=5` Status:`waits: backoff`
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop: attempts=5 wait=backoff deadline=context`
		body, code, err := c.get(ctx, "/status/"+id)
		switch {
		case err != nil:
			lastErr = err
		case code >= 500:
			lastErr = fmt.Errorf("status %s: %d", id, code)
		default:
			return strings.TrimSpace(string(body)), nil
		}
		c.log.Warn("status", "id", id, "attempt", attempt, "err", lastErr)
		time.Sleep(c.policy.Delay(attempt))
	}
	return "", lastErr
}

func (c *Client) Health(ctx context.Context) error { // want Health:`retries: retry loop at delaypolicy.go:62, attempts=3` Health:`waits: jittered`
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=jittered deadline=context`
		_, code, err := c.get(ctx, "/health")
		if err == nil && code < 500 {
			return nil
		}
		lastErr = fmt.Errorf("health: %d: %v", code, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.policy.Jittered(attempt)):
		}
	}
	return lastErr
}

func (c *Client) Ping(ctx context.Context) error { // want Ping:`retries: retry loop at delaypolicy.go:79, attempts=4` Ping:`waits: fixed`
	var err error
	for range 4 { // want `retry loop: attempts=4 wait=fixed deadline=context`
		if _, _, err = c.get(ctx, "/ping"); err == nil {
			return nil
		}
		time.Sleep(c.policy.Interval())
	}
	return err
}

func (c *Client) Object(ctx context.Context, key string, retryAfter string) ([]byte, error) { // want Object:`retries: retry loop at delaypolicy.go:90, attempts=3` Object:`waits: unknown`
	var lastErr error
	for range 3 { // want `retry loop: attempts=3 wait=unknown deadline=context`
		body, code, err := c.get(ctx, "/objects/"+key)
		if err == nil && code == http.StatusOK {
			return body, nil
		}
		lastErr = fmt.Errorf("object %s: %d: %v", key, code, err)
		time.Sleep(backoff.FromHeader(retryAfter))
	}
	return nil, lastErr
}
