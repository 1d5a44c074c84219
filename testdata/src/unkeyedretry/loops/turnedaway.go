package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// A predictions client whose requests are retried only where a repeat cannot apply an effect
// twice: a POST only after a 429 or a 401 (turned away before it was processed), a GET also
// after a 5xx.

type predictionsClient struct {
	base     string
	token    string
	backup   string
	fallback atomic.Bool
	hc       *http.Client
	retries  int
}

type prediction struct {
	ID      string         `json:"id"`
	Version string         `json:"version"`
	Input   map[string]any `json:"input"`
}

// shouldRetry: GET on 429 and 5xx, every other method on 429 only.
func (c *predictionsClient) shouldRetry(resp *http.Response, method string) bool {
	if method == http.MethodGet {
		return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 && resp.StatusCode < 600
	}
	return resp.StatusCode == http.StatusTooManyRequests
}

func (c *predictionsClient) do(req *http.Request, out any) error {
	var lastErr error
	for attempt := 0; attempt <= c.retries; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return fmt.Errorf("sending request: %w", err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("reading response: %w", err)
		}
		if resp.StatusCode >= 400 {
			lastErr = fmt.Errorf("%s %s: %s", req.Method, req.URL.Path, resp.Status)
			if !c.shouldRetry(resp, req.Method) {
				return lastErr
			}
			delay := time.Duration(500*(1<<attempt)) * time.Millisecond
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
				delay = time.Duration(s) * time.Second
			}
			time.Sleep(delay)
			if req.GetBody != nil {
				req.Body, _ = req.GetBody()
			}
			continue
		}
		return json.Unmarshal(body, out)
	}
	return lastErr
}

// Create starts a prediction: a POST, retried only on 429. Not reported.
func (c *predictionsClient) Create(ctx context.Context, version string, input map[string]any) (*prediction, error) { // want Create:"sends POST /v1/predictions without an idempotency key"
	byt, err := json.Marshal(map[string]any{"version": version, "input": input})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/predictions", bytes.NewReader(byt))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	var p prediction
	if err := c.do(req, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Upload sends a file, logging in again and sending it once more each time the server
// answers 401: a request turned away unprocessed. Not reported.
func (c *predictionsClient) Upload(ctx context.Context, name string, data []byte) error { // want Upload:"sends POST /v1/files without an idempotency key"
	for range 3 {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/files", bytes.NewReader(data))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Content-Type", "application/octet-stream")
		req.Header.Set("X-File-Name", name)
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			if err := c.login(ctx); err != nil {
				return err
			}
			continue
		}
		if resp.StatusCode >= 400 {
			return fmt.Errorf("upload %s: %s", name, resp.Status)
		}
		return nil
	}
	return fmt.Errorf("upload %s: still unauthorized", name)
}

func (c *predictionsClient) login(ctx context.Context) error {
	if c.fallback.Load() {
		return fmt.Errorf("no more credentials")
	}
	c.fallback.Store(true)
	c.token = c.backup
	return nil
}

// Train sends a POST again after a 401 or a 503: the 503 may come after the training started.
func (c *predictionsClient) Train(ctx context.Context, version string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/trainings", bytes.NewBufferString(`{"version":"`+version+`"}`)) // related "turnedaway.go:133: retrying recursion", "turnedaway.go:139: sent here" // want `POST /v1/trainings is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusServiceUnavailable {
		time.Sleep(2 * time.Second)
		return c.Train(ctx, version)
	}
	if resp.StatusCode >= 400 {
		return fmt.Errorf("train: %s", resp.Status)
	}
	return nil
}
