// Package sdkclient is the client library of an HTTP API: it builds its own http.Client and
// sends every request with the context its caller gives. A client without a Timeout is the
// library's default, reported once where it is made; its callers are not reported again.
package sdkclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

type Client struct {
	hc      *http.Client
	baseURL string
	token   string
}

// An Option configures a Client.
type Option func(*Client)

// WithHTTPClient replaces the default client.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithToken sets the API token.
func WithToken(t string) Option { return func(c *Client) { c.token = t } }

// ---- Reported, once, at the client: the default has no Timeout ----

func New(baseURL string, opts ...Option) *Client {
	c := &Client{hc: &http.Client{}, baseURL: baseURL} // related "sdkclient.go:59: Client.do sends a request with its caller's context through it" "sdkclient.go:26: a client given here replaces the default" // want `this http\.Client has no Timeout by default, so Client\.do can hang unless callers set deadlines; set a default Timeout`
	for _, o := range opts {
		o(c)
	}
	return c
}

func (c *Client) newRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, &buf)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

func (c *Client) do(req *http.Request, out any) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return fmt.Errorf("%s %s: %d: %s", req.Method, req.URL.Path, resp.StatusCode, msg)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

type Widget struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// GetWidget fetches a widget.
func (c *Client) GetWidget(ctx context.Context, id string) (*Widget, error) {
	req, err := c.newRequest(ctx, http.MethodGet, "/v1/widgets/"+id, nil)
	if err != nil {
		return nil, err
	}
	var w Widget
	if err := c.do(req, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// UpdateWidget replaces a widget.
func (c *Client) UpdateWidget(ctx context.Context, w *Widget) error {
	req, err := c.newRequest(ctx, http.MethodPut, "/v1/widgets/"+w.ID, w)
	if err != nil {
		return err
	}
	return c.do(req, nil)
}

// Health is a convenience without a context: covered by the client's finding.
func (c *Client) Health() error {
	return c.UpdateWidget(context.Background(), &Widget{ID: "health"})
}

// ---- Reported: a factory that copies http.DefaultClient ----

type Pinger struct{ hc *http.Client }

func NewPinger() *Pinger {
	factory := func() *http.Client {
		hc := *http.DefaultClient // related "sdkclient.go:123: Pinger.Ping sends a request with its caller's context through it" // want `this copy of http\.DefaultClient has no Timeout by default, so Pinger\.Ping can hang; set a default Timeout`
		return &hc
	}
	return &Pinger{hc: factory()}
}

func (p *Pinger) Ping(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return err
	}
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- Not reported: the client has a Timeout ----

type Timed struct{ hc *http.Client }

func NewTimed() *Timed { return &Timed{hc: &http.Client{Timeout: 20 * time.Second}} }

func (t *Timed) Get(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return t.hc.Do(req)
}

// Refresh drops its caller's context, but the client's Timeout bounds the call.
func (t *Timed) Refresh(ctx context.Context, url string) error {
	_ = ctx
	resp, err := t.Get(context.Background(), url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
