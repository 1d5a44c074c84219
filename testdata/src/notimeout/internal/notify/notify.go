// Package notify posts alerts to webhooks for the rest of its module. Its client has no
// Timeout: every caller is in the module and bounds the context it passes.
package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Webhook posts to one URL.
type Webhook struct {
	URL    string
	Header http.Header
	client *http.Client
}

// New returns a Webhook for url.
func New(url string) *Webhook {
	return &Webhook{URL: url, Header: make(http.Header), client: &http.Client{Transport: http.DefaultTransport}}
}

// Post sends the alert, bounded by ctx.
func (w *Webhook) Post(ctx context.Context, alert any) error {
	body, err := json.Marshal(alert)
	if err != nil {
		return fmt.Errorf("marshal alert: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, vs := range w.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("post alert: %s: %s", resp.Status, msg)
	}
	return nil
}
