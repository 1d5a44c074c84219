// Package viareq: requests sent through a helper that uses the package's own client, which
// has no Timeout; only the request's context can bound them. The client, the library's
// default, is reported where it is made; a request made without a context, at its call.
package viareq

import (
	"context"
	"net/http"
)

type Client struct {
	hc *http.Client
}

func New() *Client {
	return &Client{hc: &http.Client{Transport: http.DefaultTransport}} // related "viareq.go:20: Client.do sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.do can hang unless callers set deadlines; set a default Timeout`
}

func (c *Client) do(req *http.Request) (*http.Response, error) {
	return c.hc.Do(req)
}

// ---- Reported ----

// The caller's context is at hand, but the request is made without it.
func (c *Client) Upload(ctx context.Context, url string) error {
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	_, err = c.do(req) // related "viareq.go:19: Client.do passes its request's context to Client.Do" "viareq.go:27: http.NewRequest gives the request no context" // want `Client\.do's request has no context, so a stalled server hangs this call; make it with http\.NewRequestWithContext and ctx`
	return err
}

// ---- Not reported ----

func (c *Client) Download(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	_, err = c.do(req)
	return err
}
