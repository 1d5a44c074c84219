// Package exportedfield is an alerting SDK whose client keeps its retrying HTTP client in an
// exported field, filled by the constructor with the library's default (no Timeout); a
// timeout or client of the caller's is set only when its configuration gives one.
package exportedfield

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type Config struct {
	APIKey         string
	APIURL         string
	HttpClient     *http.Client
	RequestTimeout time.Duration
	RetryCount     int
	ProxyURL       *url.URL
}

func (c *Config) Validate() error {
	if c.APIKey == "" {
		return errors.New("API key cannot be blank")
	}
	return nil
}

type Client struct {
	RetryableClient *retryablehttp.Client
	Config          *Config
}

func setConfiguration(c *Client, cfg *Config) {
	c.RetryableClient.ErrorHandler = c.errorHandler
	if cfg.APIURL == "" {
		cfg.APIURL = "https://api.example.com"
	}
	if cfg.HttpClient != nil {
		c.RetryableClient.HTTPClient = cfg.HttpClient
	}
	if cfg.RequestTimeout != 0 {
		c.RetryableClient.HTTPClient.Timeout = cfg.RequestTimeout
	}
	if cfg.ProxyURL != nil {
		setProxy(c)
	}
}

func setProxy(c *Client) {
	c.RetryableClient.HTTPClient.Transport = &http.Transport{Proxy: http.ProxyURL(c.Config.ProxyURL)}
}

func setRetryPolicy(c *Client, cfg *Config) {
	if cfg.RetryCount != 0 {
		c.RetryableClient.RetryMax = cfg.RetryCount
	} else {
		c.RetryableClient.RetryMax = 4
	}
}

func New(cfg *Config) (*Client, error) {
	c := &Client{
		Config:          cfg,
		RetryableClient: retryablehttp.NewClient(), // related "client.go:107: Client.do sends a request with its caller's context through it" // want `this retryablehttp\.Client has no HTTPClient\.Timeout by default, so Client\.do can hang; set a default HTTPClient\.Timeout`
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	setConfiguration(c, cfg)
	c.RetryableClient.Logger = nil
	setRetryPolicy(c, cfg)
	return c, nil
}

func (c *Client) errorHandler(resp *http.Response, err error, numTries int) (*http.Response, error) {
	if err != nil {
		return nil, fmt.Errorf("giving up after %d attempts: %w", numTries, err)
	}
	return resp, nil
}

// request is the SDK's envelope of a retryable request.
type request struct {
	*retryablehttp.Request
}

func (c *Client) buildRequest(ctx context.Context, method, path string, body any) (*request, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, method, c.Config.APIURL+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "GenieKey "+c.Config.APIKey)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return &request{req}, nil
}

func (c *Client) do(req *request) (*http.Response, error) {
	return c.RetryableClient.Do(req.Request)
}

func (c *Client) Exec(ctx context.Context, path string, out any) error {
	req, err := c.buildRequest(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	resp, err := c.do(req)
	if err != nil {
		return fmt.Errorf("exec %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("exec %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// ExecDetached builds its request without a context and gives it the caller's with
// WithContext, whose result it drops: the request is sent with none.
func (c *Client) ExecDetached(ctx context.Context, path string) error {
	r, err := retryablehttp.NewRequest(http.MethodDelete, c.Config.APIURL+path, nil)
	if err != nil {
		return err
	}
	r.Header.Set("Authorization", "GenieKey "+c.Config.APIKey)
	req := &request{r}
	if ctx != nil {
		req.WithContext(ctx)
	}
	resp, err := c.do(req) // related "client.go:106: Client.do passes its request's context to Client.Do", "client.go:129: retryablehttp.NewRequest gives the request no context" // want `Client\.do's request has no context, so a stalled server hangs this call; pass ctx to retryablehttp\.NewRequestWithContext`
	if err != nil {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	return resp.Body.Close()
}
