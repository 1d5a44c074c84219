// Package plainapi is an API client written without contexts: each method makes its request
// with http.NewRequest and sends it through the http.Client its caller hands to New. Those
// requests are one cause (the API has no context to give them), one finding for the package;
// a method that has its caller's context and drops it is a finding of its own.
package plainapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// UserAgent is sent with every request.
var UserAgent = "plainapi/2"

type Client struct {
	*http.Client
	base  string
	token string
}

// NewTransport dials with a timeout.
func NewTransport(dial time.Duration) http.RoundTripper {
	t := &http.Transport{Proxy: http.ProxyFromEnvironment, TLSHandshakeTimeout: 10 * time.Second}
	t.DialContext = (&net.Dialer{Timeout: dial, KeepAlive: 30 * time.Second}).DialContext
	return t
}

// New returns a client for base that dials with a timeout of dial.
func New(base, token string, dial time.Duration) Client {
	return Client{Client: &http.Client{Transport: NewTransport(dial)}, base: strings.TrimSuffix(base, "/"), token: token} // related "plainapi.go:47: Client.Do sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.Do can hang unless callers set deadlines; set a default Timeout`
}

// Do signs req, sends it, and logs how long it took.
func (c Client) Do(req *http.Request) (*http.Response, error) {
	start := time.Now()
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.Client.Do(req)
	if err != nil {
		log.Printf("plainapi: %s %s: %v", req.Method, req.URL, err)
		return nil, err
	}
	log.Printf("plainapi: %s %s: %s in %s", req.Method, req.URL, resp.Status, time.Since(start))
	return resp, nil
}

// ---- Reported: once for the package ----

// Head asks for a resource's headers.
func (c Client) Head(path string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodHead, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req) // related "plainapi.go:74: Client.Get sends one too", "plainapi.go:96: Client.PostJSON sends one too", "plainapi.go:106: Client.PutForm sends one too" // want `Client\.Head and 3 more calls in this package send requests made without a context: a stalled server hangs them`
}

// Get fetches a resource.
func (c Client) Get(path string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("plainapi: get %s: %s", path, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// PostJSON sends v as JSON.
func (c Client) PostJSON(path string, v any) (*http.Response, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.Do(req)
}

// PutForm sends a form.
func (c Client) PutForm(path string, form url.Values) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPut, c.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.Do(req)
}

// ---- Reported: a context at hand, dropped ----

// Delete has its caller's context and makes the request without it.
func (c Client) Delete(ctx context.Context, path string) error {
	req, err := http.NewRequest(http.MethodDelete, c.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req) // related "plainapi.go:43: Client.Do passes its request's context to Client.Do", "plainapi.go:113: http.NewRequest gives the request no context" // want `Client\.Do's request has no context, so a stalled server hangs this call; make it with http\.NewRequestWithContext and ctx`
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// ---- Not reported ----

// Patch carries its caller's context.
func (c Client) Patch(ctx context.Context, path string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}
