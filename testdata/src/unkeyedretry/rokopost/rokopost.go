// Package rokopost creates builds through an API, retrying with buildkite/roko. A POST that the
// callback gives up on when it fails in transit (rt.Break()) and retries only when the server
// answered 429 is never repeated after it may have taken effect; one retried on any error is.
package rokopost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/buildkite/roko"
)

// Build is a build to create.
type Build struct {
	Commit  string `json:"commit"`
	Branch  string `json:"branch"`
	Message string `json:"message"`
}

// Client creates builds.
type Client struct {
	hc   *http.Client
	base string
}

func (c *Client) newRequest(ctx context.Context, b Build) (*http.Request, error) {
	body, err := json.Marshal(b)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v2/builds", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// ---- Not reported: retried only when the server turned it away with 429 ----

// Create creates b.
func (c *Client) Create(ctx context.Context, b Build) error {
	r := roko.NewRetrier(roko.WithMaxAttempts(4), roko.WithStrategy(roko.Exponential(time.Second, 0)), roko.WithJitter())
	return r.DoWithContext(ctx, func(rt *roko.Retrier) error {
		req, err := c.newRequest(ctx, b)
		if err != nil {
			rt.Break()
			return err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			rt.Break()
			return fmt.Errorf("create build: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			return fmt.Errorf("create build: %s", resp.Status)
		}
		if resp.StatusCode != http.StatusCreated {
			rt.Break()
			return fmt.Errorf("create build: %s", resp.Status)
		}
		return nil
	})
}

// ---- Reported: a failure in transit is retried, and the build may exist already ----

// CreateEager creates b, retrying whatever went wrong.
func (c *Client) CreateEager(ctx context.Context, b Build) error {
	r := roko.NewRetrier(roko.WithMaxAttempts(4), roko.WithStrategy(roko.Exponential(time.Second, 0)), roko.WithJitter())
	return r.DoWithContext(ctx, func(rt *roko.Retrier) error {
		req, err := c.newRequest(ctx, b)
		if err != nil {
			rt.Break()
			return err
		}
		resp, err := c.hc.Do(req) // related "rokopost.go:77: retry callback" // want `POST /v2/builds is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return fmt.Errorf("create build: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("create build: %s", resp.Status)
		}
		return nil
	})
}
