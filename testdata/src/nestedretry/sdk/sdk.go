// Package sdk is a client library that retries inside: its functions carry a RetriesFact.
package sdk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

type Client struct {
	HTTP    *http.Client
	BaseURL string
}

// do retries a request up to five times with full jitter.
func (c *Client) do(ctx context.Context, method, path string) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.HTTP.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("%s %s: status %d", method, path, resp.StatusCode)
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(100 * time.Millisecond << attempt)))):
		}
	}
	return nil, lastErr
}

// UploadPart sends one part; it retries inside.
func (c *Client) UploadPart(ctx context.Context, upload string, n int) error {
	resp, err := c.do(ctx, http.MethodPut, fmt.Sprintf("/uploads/%s/parts/%d", upload, n))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Status reads a status once; no retry.
func (c *Client) Status(ctx context.Context, id string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/status/"+id, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
