// Package reqbuild is a hosting provider's API client: it sends through the caller's client,
// http.DefaultClient by default, requests that the rest package builds.
package reqbuild

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"notimeout/reqbuild/rest"
)

type Config struct {
	HTTPClient *http.Client
	URL        string
	Token      string
}

type Client struct{ config Config }

func New(config Config) *Client {
	if config.HTTPClient == nil {
		config.HTTPClient = http.DefaultClient
	}
	if config.URL == "" {
		config.URL = "https://api.example.net/v6"
	}
	return &Client{config: config}
}

func (c *Client) decode(resp *http.Response, out any) error {
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		return fmt.Errorf("api: %s: %s", resp.Status, b)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// Get sends a request the rest package made with no context: reported.
func (c *Client) Get(r rest.Request, out any) error {
	req, err := r.HTTPRequest(c.config.URL, http.MethodGet)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.config.Token)
	hc := c.config.HTTPClient
	resp, err := hc.Do(req) // related "reqbuild.go:25: http.DefaultClient is the default when no client is given", "reqbuild.go:16: a client given here replaces the default", "reqbuild.go:47: Request.HTTPRequest gives the request no context" // want `the default, http.DefaultClient, has no Timeout and the request has no context, so a stalled server hangs this call`
	if err != nil {
		return fmt.Errorf("request error: %w", err)
	}
	return c.decode(resp, out)
}

// GetContext sends one made with the caller's context: not reported here.
func (c *Client) GetContext(ctx context.Context, r rest.Request, out any) error {
	req, err := r.HTTPRequestContext(ctx, c.config.URL, http.MethodGet)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.config.Token)
	resp, err := c.config.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("request error: %w", err)
	}
	return c.decode(resp, out)
}
