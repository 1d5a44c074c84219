// Package viareq: requests sent through a helper that uses the package's own client, which
// has no Timeout; only the request's context can bound them.
package viareq

import (
	"context"
	"net/http"
)

type Client struct {
	hc *http.Client
}

func New() *Client {
	return &Client{hc: &http.Client{Transport: http.DefaultTransport}}
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
	_, err = c.do(req) // want `Client.do passes a request made by http.NewRequest \(line 26\), which gives it no context, to http.Client.Do \(viareq.go:19\), which nothing else bounds: a stalled server blocks that call forever; make the request with http.NewRequestWithContext and ctx`
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
