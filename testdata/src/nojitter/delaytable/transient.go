package delaytable

import (
	"context"
	"net/http"
	"time"
)

var transient = map[int]struct{}{http.StatusBadGateway: {}, http.StatusGatewayTimeout: {}}

// Fetch goes round while the status is in a set of transient ones, on a fixed period.
func (c *Client) Fetch(ctx context.Context, path string) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if _, again := transient[resp.StatusCode]; !again {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(2 * time.Second) // related "transient.go:13: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
	}
	return nil, context.DeadlineExceeded
}
