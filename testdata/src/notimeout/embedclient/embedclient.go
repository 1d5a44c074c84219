// Package embedclient is an API client that embeds the http.Client it sends through.
package embedclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

type Config struct {
	Server      string
	AccessToken string
}

// Client embeds the http.Client: users may replace it or set its Timeout.
type Client struct {
	http.Client
	Config    *Config
	UserAgent string
}

// NewClient copies the default client: no Timeout by default, reported once, here.
func NewClient(cfg *Config) *Client {
	return &Client{
		Client: *http.DefaultClient, // related "embedclient.go:50: Client.get sends a request with its caller's context through it" "embedclient.go:21: a client given here replaces the default" // want `http\.DefaultClient has no Timeout as the default, so Client\.get can hang; use a client with a Timeout`
		Config: cfg,
	}
}

func (c *Client) get(ctx context.Context, path string, params url.Values, out any) error {
	u, err := url.Parse(c.Config.Server)
	if err != nil {
		return err
	}
	u.Path = path
	u.RawQuery = params.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Config.AccessToken)
	req.Header.Set("Accept", "application/json")
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s %s: %s: %s", req.Method, path, resp.Status, msg)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// Account fetches an account.
func (c *Client) Account(ctx context.Context, id string) (map[string]any, error) {
	var out map[string]any
	err := c.get(ctx, "/api/v1/accounts/"+url.PathEscape(id), nil, &out)
	return out, err
}

// Bounded embeds a client the package builds with a Timeout: not reported.
type Bounded struct {
	http.Client
	base string
}

func NewBounded(base string) *Bounded {
	return &Bounded{Client: http.Client{Timeout: 20 * time.Second}, base: base}
}

func (b *Bounded) Ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/ping", nil)
	if err != nil {
		return err
	}
	resp, err := b.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
