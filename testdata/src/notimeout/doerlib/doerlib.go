// Package doerlib wraps the http.Client its callers hand in (a default without a Timeout when
// they hand in none) and changes each request before sending it.
package doerlib

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Modifier changes a request before it is sent.
type Modifier interface {
	Modify(req *http.Request) error
}

// Client sends requests through an http.Client, changed by its modifiers.
type Client struct {
	client    *http.Client
	modifiers []Modifier
}

// NewClient returns a Client sending through c, or through a client of its own when c is nil.
func NewClient(c *http.Client, modifiers ...Modifier) *Client {
	client := &Client{client: c}
	if client.client == nil {
		client.client = &http.Client{Transport: http.DefaultTransport} // related "doerlib.go:42: Client.Do sends a request with its caller's context through it" "doerlib.go:24: a client given here replaces the default" // want `this http\.Client has no Timeout by default, so Client\.Do can hang unless callers set deadlines; set a default Timeout`
	}
	if len(modifiers) > 0 {
		client.modifiers = modifiers
	}
	return client
}

// Do sends req after the modifiers changed it.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	for _, m := range c.modifiers {
		if err := m.Modify(req); err != nil {
			return nil, fmt.Errorf("modify request: %w", err)
		}
	}
	return c.client.Do(req)
}

// GetJSON decodes the answer to a GET of url into v.
func (c *Client) GetJSON(req *http.Request, v any) error {
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return fmt.Errorf("%s: %s", resp.Status, body)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}
