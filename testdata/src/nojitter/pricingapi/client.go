// Package pricingapi is a pricing API client whose go-retryablehttp client its constructor
// builds; its tests build one for a local server and store it in the same field.
package pricingapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

// Client talks to the pricing API.
type Client struct {
	hc       *retryablehttp.Client
	endpoint string
	key      string
}

func (c *Client) do(method, path string, body any) ([]byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := retryablehttp.NewRequest(method, c.endpoint+path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", c.key)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	return out, nil
}

// Prices asks for the prices matching a query.
func (c *Client) Prices(query string) ([]byte, error) {
	return c.do(http.MethodGet, "/prices?q="+query, nil)
}
