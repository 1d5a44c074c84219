// Package optiontimeout is an SDK whose client gets a timeout only when the caller's
// configuration names one: by default, none.
package optiontimeout

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

type Config struct {
	APIURL         string
	APIKey         string
	RequestTimeout time.Duration // 0: none
	HTTPClient     *http.Client  // nil: the SDK's own
}

type Client struct {
	cfg *Config
	hc  *http.Client
}

func New(cfg *Config) *Client {
	c := &Client{cfg: cfg, hc: &http.Client{}} // related "optiontimeout.go:42: Client.Get sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.Get can hang unless callers set deadlines; set a default Timeout`
	if cfg.HTTPClient != nil {
		c.hc = cfg.HTTPClient
	}
	if cfg.RequestTimeout != 0 {
		c.hc.Timeout = cfg.RequestTimeout
	}
	return c
}

func (c *Client) Get(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.APIURL+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "GenieKey "+c.cfg.APIKey)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("get %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// A default timeout of its own, which the caller's replaces: not reported.
type Pinger struct {
	hc  *http.Client
	url string
}

func NewPinger(url string, timeout time.Duration) *Pinger {
	p := &Pinger{hc: &http.Client{Timeout: 10 * time.Second}, url: url}
	if timeout != 0 {
		p.hc.Timeout = timeout
	}
	return p
}

func (p *Pinger) Ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.url, nil)
	if err != nil {
		return err
	}
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
