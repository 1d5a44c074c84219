// Package zeroedclient posts notifications through clients whose Timeout it sets to zero on
// purpose: each request carries its caller's deadline instead.
package zeroedclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

type postOptions struct {
	contentType string
	username    string
	password    string
}

// ---- Not reported: Timeout = 0 written out, the callers' contexts bound the posts ----

func newRetryingClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	// No client timeout: the provider's timeout is on the context.
	c.HTTPClient.Timeout = 0
	c.RetryWaitMin = 2 * time.Second
	c.RetryWaitMax = 30 * time.Second
	c.RetryMax = 4
	return c
}

// PostMessage posts payload to address, bounded by ctx.
func PostMessage(ctx context.Context, address string, payload any, opts postOptions) error {
	data, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("marshal payload: %w", err)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, address, data)
	if err != nil {
		return fmt.Errorf("new request: %w", err)
	}
	req.Header.Set("Content-Type", opts.contentType)
	if opts.username != "" {
		req.SetBasicAuth(opts.username, opts.password)
	}
	resp, err := newRetryingClient().Do(req)
	if err != nil {
		return fmt.Errorf("post: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("post: %s: %s", resp.Status, b)
	}
	return nil
}

// Alerter posts through a plain client whose Timeout is zeroed after it is made.
type Alerter struct {
	url    string
	client *http.Client
}

// NewAlerter returns an Alerter for url.
func NewAlerter(url string) *Alerter {
	c := &http.Client{Transport: http.DefaultTransport}
	c.Timeout = 0 // deadlines come with each call's context
	return &Alerter{url: url, client: c}
}

// Alert posts msg, bounded by ctx.
func (a *Alerter) Alert(ctx context.Context, msg string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url, bytes.NewBufferString(msg))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain")
	resp, err := a.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- Reported: the same client, left without a Timeout by omission ----

// Pager posts pages.
type Pager struct {
	url    string
	client *http.Client
}

// NewPager returns a Pager for url.
func NewPager(url string) *Pager {
	c := &http.Client{Transport: http.DefaultTransport} // related "zeroedclient.go:109: Pager.Page sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Pager\.Page can hang unless callers set deadlines; set a default Timeout`
	return &Pager{url: url, client: c}
}

// Page posts msg, bounded by ctx.
func (p *Pager) Page(ctx context.Context, msg string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewBufferString(msg))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain")
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
