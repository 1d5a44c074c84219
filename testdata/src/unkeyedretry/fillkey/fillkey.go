// Package fillkey: an SDK whose request helper makes an idempotency key for every POST that comes
// without one, once, before its retry loop. The POSTs it sends are keyed; a PATCH is not.
package fillkey

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/google/uuid"
)

type Client struct {
	base       string
	httpClient *http.Client
	maxRetries int
}

type requestConfig struct {
	idempotencyKey string
}

type RequestOption func(*requestConfig)

func WithIdempotencyKey(k string) RequestOption {
	return func(c *requestConfig) { c.idempotencyKey = k }
}

func (c *Client) request(ctx context.Context, method, path string, body any, opts []RequestOption) (*http.Response, error) {
	cfg := &requestConfig{}
	for _, opt := range opts {
		opt(cfg)
	}
	idempotencyKey := cfg.idempotencyKey
	if method == http.MethodPost && idempotencyKey == "" {
		idempotencyKey = uuid.New().String()
	}
	var lastErr error
	for attempt := 0; attempt <= c.maxRetries; attempt++ { // related "fillkey.go:104: a PATCH request sent here" // want `the retry loop in Client\.request retries a PATCH request without an idempotency key, so a retry can repeat its effect`
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(rand.N(time.Second << attempt)):
			}
		}
		var bodyReader io.Reader
		if body != nil {
			data, err := json.Marshal(body)
			if err != nil {
				return nil, err
			}
			bodyReader = bytes.NewReader(data)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, bodyReader)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		if idempotencyKey != "" {
			req.Header.Set("Idempotency-Key", idempotencyKey)
		}
		resp, err := c.httpClient.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			lastErr = fmt.Errorf("status %d", resp.StatusCode)
			continue
		}
		return resp, nil
	}
	return nil, lastErr
}

// ---- Not reported: the helper makes a key for every POST that comes without one ----

func (c *Client) CreateOrg(ctx context.Context, name string) error {
	resp, err := c.request(ctx, http.MethodPost, "/orgs", map[string]string{"name": name}, nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateOrgWithKey(ctx context.Context, name, key string) error {
	resp, err := c.request(ctx, http.MethodPost, "/orgs", map[string]string{"name": name}, []RequestOption{WithIdempotencyKey(key)})
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- Reported: the helper makes a key only for POSTs ----

func (c *Client) RenameOrg(ctx context.Context, id, name string) error {
	resp, err := c.request(ctx, http.MethodPatch, "/orgs/"+id, map[string]string{"name": name}, nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
