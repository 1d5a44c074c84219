// Package ssewhole keeps the answer in a struct too, but reads it whole once: no stream.
package ssewhole

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

type Config struct {
	BaseURL    string
	HTTPClient *http.Client
}

func DefaultConfig(key string) Config {
	return Config{
		BaseURL:    "https://api.example.com/v1/complete?key=" + key,
		HTTPClient: &http.Client{}, // related "ssewhole.go:63: Client.Complete sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.Complete can hang; set a default Timeout`
	}
}

type Client struct {
	config Config
}

func New(cfg Config) *Client { return &Client{config: cfg} }

type Answer struct {
	body io.ReadCloser
}

// Text reads the answer whole.
func (a *Answer) Text() (string, error) {
	defer a.body.Close()
	b, err := io.ReadAll(io.LimitReader(a.body, 1<<20))
	if err != nil {
		return "", err
	}
	var out struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return "", err
	}
	return out.Text, nil
}

// ---- Reported: the client's request is answered whole ----

func (c *Client) Complete(ctx context.Context, prompt string) (*Answer, error) {
	body, err := json.Marshal(map[string]string{"prompt": prompt})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.config.BaseURL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.config.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("complete: %s", resp.Status)
	}
	return &Answer{body: resp.Body}, nil
}
