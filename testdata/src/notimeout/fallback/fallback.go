// Package fallback: SDK clients that use the caller's HTTP client when one is given and a
// default without a timeout otherwise. The default path is real: report it.
package fallback

import (
	"context"
	"net/http"
	"time"
)

type Options struct {
	HTTPClient *http.Client
	BaseURL    string
}

type Client struct {
	hc   *http.Client
	base string
}

func New(opts Options) *Client {
	hc := opts.HTTPClient
	if hc == nil {
		hc = http.DefaultClient // related "fallback.go:36: Client.Do sends a request without a context through it" "fallback.go:32: http.NewRequest gives the request no context" "fallback.go:94: Client.StatusContext sends a request with its caller's context through it" "fallback.go:22: a client given here replaces the default" // want `the default, http\.DefaultClient, has no Timeout, so a stalled server hangs Client\.Do \(and 1 other call\)`
	}
	return &Client{hc: hc, base: opts.BaseURL}
}

// ---- Reported ----

func (c *Client) Status() error {
	req, err := http.NewRequest(http.MethodGet, c.base+"/status", nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A client given by an option, or a literal without a timeout.
type API struct {
	hc *http.Client
}

type Option func(*API)

func WithHTTPClient(hc *http.Client) Option { return func(a *API) { a.hc = hc } }

func NewAPI(opts ...Option) *API {
	a := &API{hc: &http.Client{}} // related "fallback.go:60: Client.Get sends a request without a context through it" "fallback.go:50: a client given here replaces the default" // want `this default http\.Client has no Timeout, so a stalled server hangs Client\.Get; set Timeout`
	for _, opt := range opts {
		opt(a)
	}
	return a
}

func (a *API) Ping(url string) { a.hc.Get(url) }

// The caller's client, or none.
func get(hc *http.Client, url string) error {
	if hc == nil {
		hc = http.DefaultClient
	}
	_, err := hc.Get(url) // related "fallback.go:65: http.DefaultClient is the default when no client is given" "fallback.go:63: a client given here replaces the default" // want `the default, http\.DefaultClient, has no Timeout and the request has no context, so a stalled server hangs this call`
	return err
}

// ---- Not reported ----

// The default has a timeout.
type Timed struct {
	hc *http.Client
}

func NewTimed(hc *http.Client) *Timed {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Timed{hc: hc}
}

func (t *Timed) Ping(url string) { t.hc.Get(url) }

// The request carries the caller's context: in a library, that guarantees nothing, so the
// call is one of those the default client's finding lists (above), not a finding of its own.
func (c *Client) StatusContext(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/status", nil)
	if err != nil {
		return err
	}
	_, err = c.hc.Do(req)
	return err
}

// The caller's client, without a default: the caller's business.
type Given struct {
	hc *http.Client
}

func NewGiven(hc *http.Client) *Given { return &Given{hc: hc} }

func (g *Given) Ping(url string) { g.hc.Get(url) }
