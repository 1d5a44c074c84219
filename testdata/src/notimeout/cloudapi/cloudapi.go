// Package cloudapi is a cloud provider's API client. Its constructor builds the HTTP client
// without a Timeout; a helper for its users' tests swaps in the client of an httptest server,
// which is no client users run: the default is reported, once, at the client.
package cloudapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
)

type Client struct {
	BaseURL    *url.URL
	APIKey     string
	Region     string
	httpClient *http.Client
}

type HTTPError struct {
	Code   int
	Reason string
}

func (e HTTPError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Reason) }

// NewClientWithURL makes a client for the API at base.
func NewClientWithURL(apiKey, base, region string) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{Proxy: http.ProxyFromEnvironment}
	return &Client{
		BaseURL: u,
		APIKey:  apiKey,
		Region:  region,
		httpClient: &http.Client{ // related "cloudapi.go:65: Client.send sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.send can hang unless callers set deadlines; set a default Timeout`
			Transport: tr,
		},
	}, nil
}

// NewClientForTesting makes a client whose requests go to server: for users' tests.
func NewClientForTesting(server *httptest.Server) (*Client, error) {
	c, err := NewClientWithURL("TEST-API-KEY", server.URL, "TEST")
	if err != nil {
		return nil, err
	}
	c.httpClient = server.Client()
	return c, nil
}

func (c *Client) send(ctx context.Context, method, path string, body io.Reader) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL.String()+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "bearer "+c.APIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		return nil, HTTPError{Code: resp.StatusCode, Reason: string(data)}
	}
	return data, nil
}

type Instance struct {
	ID       string `json:"id"`
	Hostname string `json:"hostname"`
	Status   string `json:"status"`
}

// GetInstance fetches one instance.
func (c *Client) GetInstance(ctx context.Context, id string) (*Instance, error) {
	data, err := c.send(ctx, http.MethodGet, "/v2/instances/"+url.PathEscape(id)+"?region="+c.Region, nil)
	if err != nil {
		return nil, err
	}
	var inst Instance
	if err := json.Unmarshal(data, &inst); err != nil {
		return nil, err
	}
	return &inst, nil
}

// RebootInstance asks for a reboot.
func (c *Client) RebootInstance(ctx context.Context, id string) error {
	_, err := c.send(ctx, http.MethodPost, "/v2/instances/"+url.PathEscape(id)+"/reboots", strings.NewReader(`{"region":"`+c.Region+`"}`))
	return err
}
