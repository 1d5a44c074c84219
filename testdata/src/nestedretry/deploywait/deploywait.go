// Package deploywait rolls out releases through a deployment API. Waiting for a rollout is a
// poll for a state (each failure of the status call ends it), not a retry layer, so the retry
// around the whole rollout multiplies nothing.
package deploywait

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Rollout is a deployment's state.
type Rollout struct {
	ID      string `json:"id"`
	State   string `json:"state"`
	Message string `json:"message"`
}

// Client talks to the deployment API.
type Client struct {
	hc   *http.Client
	base string
	tok  string
}

// New returns a client with a timeout.
func New(base, token string) *Client {
	return &Client{hc: &http.Client{Timeout: 30 * time.Second}, base: base, tok: token}
}

func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body bytes.Buffer
	if in != nil {
		if err := json.NewEncoder(&body).Encode(in); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, &body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// Status reads a rollout.
func (c *Client) Status(ctx context.Context, id string) (*Rollout, error) {
	var r Rollout
	if err := c.call(ctx, http.MethodGet, "/rollouts/"+id, nil, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Start starts a rollout.
func (c *Client) Start(ctx context.Context, release string) (*Rollout, error) {
	var r Rollout
	err := c.call(ctx, http.MethodPut, "/releases/"+release+"/rollout", nil, &r)
	return &r, err
}

// waitDone polls the rollout until it is done: a failed status call ends the wait (marked
// permanent); a rollout still in progress is a fresh error made from the answer.
func (c *Client) waitDone(ctx context.Context, id string) (*Rollout, error) {
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 90), ctx)
	return backoff.RetryWithData(func() (*Rollout, error) {
		r, err := c.Status(ctx, id)
		if err != nil {
			return nil, backoff.Permanent(fmt.Errorf("rollout status: %w", err))
		}
		switch r.State {
		case "done":
			return r, nil
		case "failed":
			return nil, backoff.Permanent(fmt.Errorf("rollout %s failed: %s", id, r.Message))
		default:
			slog.Debug("rollout in progress", "id", id, "state", r.State)
			return nil, fmt.Errorf("rollout %s is %s", id, r.State)
		}
	}, b)
}

var errBusy = errors.New("another rollout is in progress")

// Deploy starts a rollout and waits for it, trying again when another rollout held the
// release: not reported, the wait inside is a poll.
func (c *Client) Deploy(ctx context.Context, release string) (*Rollout, error) {
	var last error
	for attempt := range 3 {
		r, err := c.Start(ctx, release)
		if err != nil {
			return nil, err
		}
		done, err := c.waitDone(ctx, r.ID)
		if err == nil {
			return done, nil
		}
		last = err
		slog.Warn("rollout did not finish", "release", release, "attempt", attempt+1, "err", err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 10 * time.Second):
		}
	}
	return nil, fmt.Errorf("%w: %v", errBusy, last)
}

// waitVisible goes round on every failure of the status call: a retry layer.
func (c *Client) waitVisible(ctx context.Context, id string) (*Rollout, error) {
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 5), ctx)
	return backoff.RetryWithData(func() (*Rollout, error) {
		return c.Status(ctx, id)
	}, b)
}

// Promote reads a rollout that may not be visible yet, three times: reported, each round
// runs the inner retries again.
func (c *Client) Promote(ctx context.Context, id string) error {
	for attempt := range 3 {
		r, err := c.waitVisible(ctx, id) // related "deploywait.go:136: outer retry loop" "deploywait.go:128: inner retry callback" // want `retries up to 3 times around Client\.waitVisible, which retries up to 6 times: up to 18 calls per request; keep one layer`
		if err == nil {
			return c.call(ctx, http.MethodPost, "/rollouts/"+r.ID+"/promote", nil, &struct{}{})
		}
		slog.Warn("rollout not visible", "id", id, "attempt", attempt+1, "err", err)
		time.Sleep(2 * time.Second)
	}
	return fmt.Errorf("rollout %s never became visible", id)
}
