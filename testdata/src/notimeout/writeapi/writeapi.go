// Package writeapi is a remote-write client whose HTTP client is chosen by an option.
package writeapi

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

type apiOpts struct {
	client *http.Client
	path   string
}

// Option configures an API.
type Option func(*apiOpts) error

// WithHTTPClient sends the requests through client.
func WithHTTPClient(client *http.Client) Option {
	return func(o *apiOpts) error {
		o.client = client
		return nil
	}
}

// WithPath sets the path requests are sent to.
func WithPath(p string) Option {
	return func(o *apiOpts) error {
		o.path = p
		return nil
	}
}

// API writes to a remote endpoint.
type API struct {
	opts apiOpts
	base *url.URL
}

// New returns an API for base.
func New(base string, opts ...Option) (*API, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("base URL: %w", err)
	}
	o := apiOpts{client: http.DefaultClient, path: "/api/v1/write"} // related "writeapi.go:65: API.Write sends a request with its caller's context through it" "writeapi.go:22: a client given here replaces the default" // want `http\.DefaultClient has no Timeout as the default, so API\.Write can hang; use a client with a Timeout`
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	return &API{opts: o, base: u}, nil
}

// Write sends body with the caller's context.
func (a *API) Write(ctx context.Context, body []byte) error {
	req, err := http.NewRequest(http.MethodPost, a.base.JoinPath(a.opts.path).String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := a.opts.client.Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("write: %s: %s", resp.Status, msg)
	}
	return nil
}
