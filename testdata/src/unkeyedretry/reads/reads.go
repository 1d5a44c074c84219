// Package reads evaluates feature flags with POSTs that only read, which the team marks with
// -unkeyedretry.reads=/v1/flags,unkeyedretry/reads.Client.segments: not reported. A
// POST that creates, retried the same way, is.
package reads

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

type Client struct {
	hc   *http.Client
	base string
}

type evalRequest struct {
	User  string   `json:"user"`
	Flags []string `json:"flags"`
}

func (c *Client) post(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body)) // want `a POST request is retried without an idempotency key`
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.hc.Do(req)
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(out)
			resp.Body.Close()
			if err == nil {
				return nil
			}
		}
		lastErr = err
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
	return fmt.Errorf("post %s: %w", path, lastErr)
}

// Evaluate asks which flags are on: a read, marked by its path.
func (c *Client) Evaluate(ctx context.Context, user string, flags []string) (map[string]bool, error) {
	var out map[string]bool
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/flags", nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			if err == nil {
				return out, nil
			}
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
	return nil, fmt.Errorf("evaluate flags for %s", user)
}

// segments asks which segments a user is in: a read, marked by its function.
func (c *Client) segments(ctx context.Context, user string) ([]string, error) {
	var out []string
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/segments:resolve", nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			if err == nil {
				return out, nil
			}
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
	return nil, fmt.Errorf("segments of %s", user)
}

// Track records an event: not marked, reported (in post, where the POST is retried).
func (c *Client) Track(ctx context.Context, user, event string) error {
	return c.post(ctx, "/v1/events", evalRequest{User: user, Flags: []string{event}}, nil)
}
