// Package delaytable is an auth API's client that sends a request once, then walks a table of
// delays: before each further attempt it looks the last answer's status up in a table of
// statuses worth retrying (a proxy's 520/524, 503), waits the table's next delay and sends
// again. The delays are the same for every client: they come back together. A table of
// statuses that answer the request (404, 409) ends the loop the other way round, and a table
// of labels for logging decides nothing.
package delaytable

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

var retryDelays = []time.Duration{100 * time.Millisecond, 5 * time.Second, 5 * time.Second}

var retryableStatuses = map[int]bool{
	http.StatusServiceUnavailable: true,
	520:                           true,
	521:                           true,
	524:                           true,
}

var statusLabels = map[int]string{http.StatusOK: "ok", http.StatusCreated: "created", http.StatusServiceUnavailable: "unavailable"}

type Client struct {
	hc      *http.Client
	baseURL string
	logger  *slog.Logger
}

func New(baseURL string) *Client {
	return &Client{hc: &http.Client{Timeout: 60 * time.Second}, baseURL: baseURL, logger: slog.Default()}
}

// Do sends method path with body, retrying on the table's statuses.
func (c *Client) Do(ctx context.Context, method, path string, body []byte) (*http.Response, error) {
	send := func() (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		return c.hc.Do(req)
	}
	resp, err := send()
	for _, delay := range retryDelays {
		if err != nil || !retryableStatuses[resp.StatusCode] {
			break
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		c.logger.Warn("retrying", "path", path, "status", resp.StatusCode, "label", statusLabels[resp.StatusCode])
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay): // related "delaytable.go:52: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
		resp, err = send()
	}
	return resp, err
}

// GetUser reads a user through Do.
func (c *Client) GetUser(ctx context.Context, id string) (map[string]any, error) {
	resp, err := c.Do(ctx, http.MethodGet, "/v1/users/"+id, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("delaytable: status %d (%s)", resp.StatusCode, statusLabels[resp.StatusCode])
	}
	var out map[string]any
	return out, json.NewDecoder(resp.Body).Decode(&out)
}
