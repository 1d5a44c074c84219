// Package bodyhelper is an SDK whose request helpers hand a body down to the function that
// makes the request, copy the answer into a writer when the caller passes one instead of a
// value, and read a fan-out answer as a stream. Its default client has no Timeout: one
// finding, at the client.
package bodyhelper

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

type Client struct {
	hc       *http.Client
	endpoint string
	token    string
}

func New(token string) *Client {
	return &Client{hc: &http.Client{}, endpoint: "https://api.example.com", token: token} // related "bodyhelper.go:33: Client.doWith sends a request with its caller's context through it" "bodyhelper.go:77: Client.send reads a stream through it, which a Timeout would cut" // want `this http\.Client has no Timeout, so Client\.doWith can hang; it also streams: give each request a deadline`
}

func (c *Client) doWith(ctx context.Context, endpoint, method, path string, body io.Reader, v any) error {
	req, err := http.NewRequestWithContext(ctx, method, endpoint+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Token "+c.token)
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	if w, ok := v.(io.Writer); ok {
		_, err = io.Copy(w, resp.Body)
		return err
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func (c *Client) do(ctx context.Context, method, path string, body io.Reader, v any) error {
	return c.doWith(ctx, c.endpoint, method, path, body, v)
}

type Ability struct {
	Name string `json:"name"`
}

func (c *Client) ListAbilitiesWithContext(ctx context.Context) ([]Ability, error) {
	var out []Ability
	return out, c.do(ctx, http.MethodGet, "/abilities", nil, &out)
}

// ListAbilities is the context-free form: the client's finding covers it.
func (c *Client) ListAbilities() ([]Ability, error) {
	return c.ListAbilitiesWithContext(context.Background())
}

func (c *Client) CreateAbility(ctx context.Context, a Ability) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return c.do(ctx, http.MethodPost, "/abilities", bytes.NewReader(b), nil)
}

// send sends a request made by its caller.
func (c *Client) send(req *http.Request) (*http.Response, error) {
	req.Header.Set("Authorization", "Token "+c.token)
	return c.hc.Do(req)
}

// FanOut drops its caller's context and reads the answer as a stream: reported at the call.
func (c *Client) FanOut(ctx context.Context, keys []string) ([]string, error) {
	pr, pw := io.Pipe()
	req, err := http.NewRequest(http.MethodPost, c.endpoint+"/fanout", pr)
	if err != nil {
		return nil, err
	}
	go func() {
		enc := json.NewEncoder(pw)
		for _, k := range keys {
			if err := enc.Encode(k); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.Close()
	}()
	resp, err := c.send(req) // related "bodyhelper.go:75: Client.send passes its request's context to Client.Do" "bodyhelper.go:83: http.NewRequest gives the request no context" // want `Client\.send's request has no context, so a stalled server hangs this call; pass ctx to http\.NewRequestWithContext`
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out []string
	dec := json.NewDecoder(resp.Body)
	for dec.More() {
		var s string
		if err := dec.Decode(&s); err != nil {
			return out, err
		}
		out = append(out, s)
	}
	return out, nil
}
