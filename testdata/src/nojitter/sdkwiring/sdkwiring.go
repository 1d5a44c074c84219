// Package sdkwiring is an SDK that hands an HTTP client made by retryablehttp to a generated
// API client: no request is sent in this package, yet every request the SDK makes goes
// through that client's retries, with the waits it was configured with here.
package sdkwiring

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"example.com/flagsapi"
	"github.com/hashicorp/go-retryablehttp"
)

type config struct {
	url        string
	env        string
	httpClient *http.Client
	pull       time.Duration
}

// ---- Reported: the default backoff has no jitter, wherever the client is used ----

func defaultConfig(env string) *config {
	rc := retryablehttp.NewClient() // related "sdkwiring.go:44: handed to flagsapi.WithHTTPClient here" // want `retryablehttp\.Client backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	rc.RetryMax = 10
	rc.Logger = nil
	return &config{
		url:        "https://config.flags.example.com/api/1.0",
		env:        env,
		httpClient: rc.StandardClient(),
		pull:       time.Minute,
	}
}

type Client struct {
	cfg *config
	api *flagsapi.ClientWithResponses
}

func New(env string) (*Client, error) {
	cfg := defaultConfig(env)
	api, err := flagsapi.NewClientWithResponses(cfg.url, flagsapi.WithHTTPClient(cfg.httpClient))
	if err != nil {
		return nil, fmt.Errorf("flags client: %w", err)
	}
	return &Client{cfg: cfg, api: api}, nil
}

func (c *Client) Refresh(ctx context.Context) (map[string]bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	resp, err := c.api.GetFlagsWithResponse(ctx, c.cfg.env)
	if err != nil {
		return nil, err
	}
	if resp.HTTPResponse.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("flags: %s", resp.HTTPResponse.Status)
	}
	out := make(map[string]bool, len(resp.JSON200))
	for _, f := range resp.JSON200 {
		out[f.Key] = f.Enabled
	}
	return out, nil
}

// ---- Not reported: a jittered backoff ----

func NewJittered(env string) (*Client, error) {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 4
	rc.Backoff = retryablehttp.LinearJitterBackoff
	cfg := &config{url: "https://config.flags.example.com/api/1.0", env: env, httpClient: rc.StandardClient()}
	api, err := flagsapi.NewClientWithResponses(cfg.url, flagsapi.WithHTTPClient(cfg.httpClient))
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, api: api}, nil
}
