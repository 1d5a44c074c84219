package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// A checkpointClient signs its requests with a primary key, and switches for good to a
// fallback key (a rotated secret) the first time the server refuses the primary one.
type checkpointClient struct {
	base        string
	primaryKey  string
	fallbackKey string
	useFallback *atomic.Bool
	retried     atomic.Bool
	hc          *http.Client
}

func newCheckpointClient(base, primary, fallback string) *checkpointClient {
	return &checkpointClient{base: base, primaryKey: primary, fallbackKey: fallback, useFallback: &atomic.Bool{}, hc: &http.Client{Timeout: 30 * time.Second}}
}

func (c *checkpointClient) signingKey() string {
	if c.useFallback.Load() {
		return c.fallbackKey
	}
	return c.primaryKey
}

type checkpointRequest struct {
	RunID string          `json:"run_id"`
	Steps json.RawMessage `json:"steps"`
}

// save sends the checkpoint; on a 401 it switches to the fallback key and sends it once
// more: another key, once. Not reported.
func (c *checkpointClient) save(ctx context.Context, cr checkpointRequest) error {
	byt, err := json.Marshal(cr)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/v1/checkpoint/%s", c.base, cr.RunID), bytes.NewReader(byt))
	if err != nil {
		return fmt.Errorf("creating request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.signingKey())
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("request failed: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("reading response: %w", err)
	}
	if resp.StatusCode >= 400 {
		if resp.StatusCode == http.StatusUnauthorized && c.fallbackKey != "" && !c.useFallback.Load() {
			c.useFallback.Store(true)
			return c.save(ctx, cr)
		}
		return fmt.Errorf("checkpoint (%d): %s", resp.StatusCode, body)
	}
	return nil
}

// saveAgain sends the checkpoint once more, at once and unchanged, the first time the server
// fails: the flag bounds it, but nothing changed.
func (c *checkpointClient) saveAgain(ctx context.Context, cr checkpointRequest) error { // related "fallbackkey.go:75: retrying recursion" // want `retrying function saveAgain goes round without waiting, so it hammers a failing dependency; wait with jitter`
	byt, err := json.Marshal(cr)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, fmt.Sprintf("%s/v1/checkpoint/%s", c.base, cr.RunID), bytes.NewReader(byt))
	if err != nil {
		return fmt.Errorf("creating request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.signingKey())
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("request failed: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 && !c.retried.Load() {
		c.retried.Store(true)
		return c.saveAgain(ctx, cr)
	}
	if resp.StatusCode >= 400 {
		return fmt.Errorf("checkpoint: %s", resp.Status)
	}
	return nil
}
