// Package notifyseam sends alert notifications to a webhook. Its sends go through a package
// variable holding a function, a seam its tests replace: production code runs the function
// it is declared with, and a request made there without a context is this package's to fix.
package notifyseam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

var doHTTPRequest = func(req *http.Request) (*http.Response, error) {
	return http.DefaultClient.Do(req)
}

// Alert is one firing or resolved alert.
type Alert struct {
	Name     string            `json:"name"`
	Severity string            `json:"severity"`
	Labels   map[string]string `json:"labels"`
	Resolved bool              `json:"resolved"`
	At       time.Time         `json:"at"`
}

// Notifier posts alerts to a webhook.
type Notifier struct {
	url    string
	header map[string]string
}

// New returns a notifier.
func New(url string, header map[string]string) *Notifier {
	return &Notifier{url: url, header: header}
}

func (n *Notifier) request(a Alert) (*http.Request, error) {
	body, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, n.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range n.header {
		req.Header.Set(k, v)
	}
	return req, nil
}

func check(resp *http.Response) error {
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return fmt.Errorf("webhook: %s: %s", resp.Status, msg)
	}
	return nil
}

// Notify sends a firing alert. Reported: it drops the context it is given.
func (n *Notifier) Notify(ctx context.Context, a Alert) error {
	req, err := n.request(a)
	if err != nil {
		return err
	}
	slog.InfoContext(ctx, "sending alert", "name", a.Name, "url", n.url)
	resp, err := doHTTPRequest(req) // related "notifyseam.go:17: doHTTPRequest passes its request's context to Client.Do" "notifyseam.go:46: http.NewRequest gives the request no context" // want `doHTTPRequest's request has no context, so a stalled server hangs this call; pass ctx to http\.NewRequestWithContext`
	if err != nil {
		return fmt.Errorf("sending alert %s: %w", a.Name, err)
	}
	return check(resp)
}

// Resolve sends a resolved alert with its caller's context: the caller's to bound.
func (n *Notifier) Resolve(ctx context.Context, a Alert) error {
	req, err := n.request(a)
	if err != nil {
		return err
	}
	resp, err := doHTTPRequest(req.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("resolving alert %s: %w", a.Name, err)
	}
	return check(resp)
}
