// Package configtimeout is a small HTTP client library whose users may set a Timeout on its
// Client. The library copies that setting onto the http.Client it builds, and sets nothing
// itself: by default the Timeout is zero, and a request sent with a context that has no
// deadline can hang.
package configtimeout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// Client fetches JSON documents.
type Client struct {
	// Timeout bounds each request; zero means none.
	Timeout time.Duration
	// UserAgent is sent with every request.
	UserAgent string

	mu sync.Mutex
	hc *http.Client
}

// New returns a client with the library's defaults.
func New() *Client { return &Client{UserAgent: "configtimeout/1.0"} }

// ---- Reported: the client is built with the Timeout its users set, zero by default ----

func (c *Client) client() *http.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hc == nil {
		c.hc = &http.Client{} // related "configtimeout.go:52: Client.GetJSON sends a request with its caller's context through it" "configtimeout.go:39: its Timeout is Client.Timeout, zero unless users set it" // want `this http\.Client has no Timeout by default, so Client\.GetJSON can hang; set a default Timeout`
		c.hc.Timeout = c.Timeout
	}
	return c.hc
}

// GetJSON fetches url and decodes it into out.
func (c *Client) GetJSON(ctx context.Context, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", c.UserAgent)
	req.Header.Set("Accept", "application/json")
	resp, err := c.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("get %s: %s: %s", url, resp.Status, msg)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// ---- Reported: the same, set in the literal ----

// Notifier posts notices.
type Notifier struct {
	Endpoint string
	// Timeout bounds each notice; zero means none.
	Timeout time.Duration
}

// Notify posts one notice.
func (u *Notifier) Notify(ctx context.Context, name, text string) error {
	hc := &http.Client{ // related "configtimeout.go:87: Notifier.Notify sends a request with its caller's context through it" "configtimeout.go:76: its Timeout is Notifier.Timeout, zero unless users set it" // want `this http\.Client has no Timeout by default, so Notifier\.Notify can hang; set a default Timeout`
		Timeout: u.Timeout,
	}
	body, err := json.Marshal(map[string]string{"name": name, "text": text})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.Endpoint+"/notices", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("notify %s: %s", name, resp.Status)
	}
	return nil
}

// ---- Not reported: a setting the library defaults when it is zero ----

// Fetcher downloads files.
type Fetcher struct {
	Timeout time.Duration
}

// Fetch downloads url into w.
func (f *Fetcher) Fetch(ctx context.Context, url string, w io.Writer) error {
	timeout := f.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	hc := &http.Client{Timeout: timeout}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(w, resp.Body)
	return err
}

// ---- Not reported: a setting a configuration file fills ----

// Config is read from the service's configuration file.
type Config struct {
	Endpoint string        `yaml:"endpoint"`
	Timeout  time.Duration `yaml:"timeout"`
}

// Poster sends events to the configured endpoint.
type Poster struct {
	cfg Config
	hc  *http.Client
}

// NewPoster returns a poster for cfg.
func NewPoster(cfg Config) *Poster {
	return &Poster{cfg: cfg, hc: &http.Client{Timeout: cfg.Timeout}}
}

// Post sends one event.
func (p *Poster) Post(ctx context.Context, body io.Reader) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.Endpoint, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- Not reported: options the caller builds and hands in whole ----

// ScanOptions are what a scanner's commands fill from their flags (a --timeout with a
// default) before they build the client.
type ScanOptions struct {
	Proxy     string
	UserAgent string
	Timeout   time.Duration
}

// Scanner sends the probes of a scan.
type Scanner struct {
	hc        *http.Client
	userAgent string
}

// NewScanner builds the scanner's client from opts.
func NewScanner(opts *ScanOptions) (*Scanner, error) {
	if opts == nil {
		return nil, fmt.Errorf("no options")
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 100}
	return &Scanner{hc: &http.Client{Timeout: opts.Timeout, Transport: tr}, userAgent: opts.UserAgent}, nil
}

// Probe requests url and returns its status.
func (s *Scanner) Probe(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", s.userAgent)
	resp, err := s.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
