// Package usesharedhttp is a model provider's client in a module whose packages share one
// http.Client without a Timeout (sharedhttp.DefaultClient): requests that carry no deadline
// are reported where they are made; a fallback to the shared client for requests that carry
// their caller's context is the shared client's business, not this package's default.
package usesharedhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"notimeout/sharedhttp"
)

// ---- Reported: requests with no deadline at all through the shared client ----

// DownloadImage fetches an image the model is shown, and returns its MIME subtype.
func DownloadImage(url string) (string, []byte, error) {
	resp, err := sharedhttp.DefaultClient.Get(url) // want `sharedhttp\.DefaultClient has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	if err != nil {
		return "", nil, fmt.Errorf("fetch image: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", nil, fmt.Errorf("read image: %w", err)
	}
	_, sub, _ := strings.Cut(resp.Header.Get("Content-Type"), "/")
	return sub, data, nil
}

// Client talks to the provider.
type Client struct {
	hc      *http.Client
	baseURL string
	key     string
	token   string
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sends through hc.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// New returns a client that has fetched its access token.
func New(key string, opts ...Option) (*Client, error) {
	c := &Client{baseURL: "https://models.example.com/v1", key: key}
	for _, o := range opts {
		o(c)
	}
	if c.hc == nil {
		c.hc = sharedhttp.DefaultClient
	}
	tok, err := c.accessToken(context.Background()) // related "usesharedhttp.go:68: Client.accessToken passes its context to Client.Do" "usesharedhttp.go:60: context.Background() has no deadline" // want `Client\.accessToken passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
	if err != nil {
		return nil, fmt.Errorf("access token: %w", err)
	}
	c.token = tok
	return c, nil
}

func (c *Client) accessToken(ctx context.Context) (string, error) {
	body, _ := json.Marshal(map[string]string{"key": c.key})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/token", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("token: %s", resp.Status)
	}
	var out struct {
		Token string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.Token, nil
}

// ---- Not reported: the caller's context, through the shared client or a timed one ----

// Complete returns the model's completion of prompt.
func (c *Client) Complete(ctx context.Context, prompt string) (string, error) {
	body, _ := json.Marshal(map[string]string{"prompt": prompt})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/complete", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return "", fmt.Errorf("complete: %s: %s", resp.Status, msg)
	}
	var out struct {
		Text string `json:"text"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return out.Text, nil
}

// Ping checks the provider through the shared client with a Timeout.
func Ping(url string) error {
	resp, err := sharedhttp.TimedClient.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
