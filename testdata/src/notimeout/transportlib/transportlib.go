// Package transportlib is an object-store SDK's client. Its default transport bounds the wait
// for a stalled server's response headers (ResponseHeaderTimeout) and leaves the body's reading
// to the caller, as streaming downloads need: the client is not reported as a default without a
// Timeout when its requests carry their caller's context. A request made without any context
// still is, unless only its answer's header is used. The transport is a package variable of func type, as SDKs let
// users replace it; its default is what most of them run. A client whose transport bounds only
// the dial and the handshake is not: a server that accepts and never answers hangs it.
package transportlib

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// DefaultTransport makes the transport a Client uses when Options.Transport is nil.
var DefaultTransport = func(secure bool) (*http.Transport, error) {
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          256,
		IdleConnTimeout:       time.Minute,
		ResponseHeaderTimeout: time.Minute,
		TLSHandshakeTimeout:   10 * time.Second,
	}
	if secure {
		tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return tr, nil
}

// Options configure a Client.
type Options struct {
	Endpoint  string
	Secure    bool
	Transport http.RoundTripper
}

// Client talks to one endpoint.
type Client struct {
	endpoint string
	hc       *http.Client
}

// New makes a Client; its HTTP client has no Timeout, its default transport a
// ResponseHeaderTimeout: not reported.
func New(opts *Options) (*Client, error) {
	transport := opts.Transport
	if transport == nil {
		tr, err := DefaultTransport(opts.Secure)
		if err != nil {
			return nil, err
		}
		transport = tr
	}
	c := &Client{endpoint: opts.Endpoint}
	c.hc = &http.Client{
		Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	return c, nil
}

// Get streams an object: the caller reads the body for as long as it needs.
func (c *Client) Get(ctx context.Context, bucket, key string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/%s/%s", c.endpoint, bucket, key), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/octet-stream")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get %s/%s: %w", bucket, key, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("get %s/%s: %s", bucket, key, resp.Status)
	}
	return resp.Body, nil
}

// Stat asks for an object's size, and builds its request without the caller's context; but
// the request has no body, so it is written at once, and only the answer's header is used:
// the header timeout bounds the whole call. Not reported.
func (c *Client) Stat(ctx context.Context, bucket, key string) (int64, error) {
	req, err := http.NewRequest(http.MethodHead, fmt.Sprintf("%s/%s/%s", c.endpoint, bucket, key), nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("stat %s/%s: %w", bucket, key, err)
	}
	resp.Body.Close()
	return resp.ContentLength, nil
}

// Admin is a second client whose transport bounds only the dial and the TLS handshake.
type Admin struct {
	endpoint string
	hc       *http.Client
}

// NewAdmin makes an Admin client: reported, once, at its http.Client.
func NewAdmin(endpoint string) *Admin {
	tr := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		TLSHandshakeTimeout: 5 * time.Second,
		IdleConnTimeout:     time.Minute,
	}
	return &Admin{endpoint: endpoint, hc: &http.Client{Transport: tr}} // related "transportlib.go:126: Admin.Health sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Admin\.Health can hang unless callers set deadlines; set a default Timeout`
}

// Health asks the server whether it is up.
func (a *Admin) Health(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.endpoint+"/health", nil)
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s", resp.Status)
	}
	return nil
}
