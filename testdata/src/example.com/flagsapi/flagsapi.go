// Package flagsapi is a client generated from an OpenAPI document: it sends its requests
// through whatever HttpRequestDoer it is given.
package flagsapi

import (
	"context"
	"encoding/json"
	"net/http"
)

type HttpRequestDoer interface {
	Do(req *http.Request) (*http.Response, error)
}

type Client struct {
	Server string
	Client HttpRequestDoer
}

type ClientOption func(*Client) error

func WithHTTPClient(doer HttpRequestDoer) ClientOption {
	return func(c *Client) error {
		c.Client = doer
		return nil
	}
}

type ClientWithResponses struct{ ClientInterface *Client }

func NewClientWithResponses(server string, opts ...ClientOption) (*ClientWithResponses, error) {
	c := &Client{Server: server}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if c.Client == nil {
		c.Client = &http.Client{}
	}
	return &ClientWithResponses{ClientInterface: c}, nil
}

type Flag struct {
	Key     string `json:"key"`
	Enabled bool   `json:"enabled"`
}

type GetFlagsResponse struct {
	HTTPResponse *http.Response
	JSON200      []Flag
}

func (c *ClientWithResponses) GetFlagsWithResponse(ctx context.Context, env string) (*GetFlagsResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.ClientInterface.Server+"/client/env/"+env+"/feature-configs", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.ClientInterface.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := &GetFlagsResponse{HTTPResponse: resp}
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&out.JSON200); err != nil {
			return nil, err
		}
	}
	return out, nil
}
