// Package handedclient authenticates with a retry helper around a function that, once it
// has a token, builds the API client with an HTTP client made by retryablehttp. Building the
// API client sends nothing: the authentication's retries do not multiply with that client's.
package handedclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"example.com/flagsapi"
	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	url   string
	auth  *http.Client
	std   *http.Client
	token string
	api   *flagsapi.ClientWithResponses
}

func New(url string) *Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 3
	rc.Backoff = retryablehttp.LinearJitterBackoff
	return &Client{url: url, auth: &http.Client{Timeout: 30 * time.Second}, std: rc.StandardClient()}
}

// ---- Not reported: the retried function hands the retrying client on, and sends its own
// request through a plain one ----

func (c *Client) authenticate(ctx context.Context, key string) error {
	body, err := json.Marshal(map[string]string{"apiKey": key})
	if err != nil {
		return backoff.Permanent(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url+"/client/auth", bytes.NewReader(body))
	if err != nil {
		return backoff.Permanent(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.auth.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("auth: %s", resp.Status)
	}
	var out struct {
		Token string `json:"authToken"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return err
	}
	c.token = out.Token
	api, err := flagsapi.NewClientWithResponses(c.url, flagsapi.WithHTTPClient(c.std))
	if err != nil {
		return backoff.Permanent(err)
	}
	c.api = api
	return nil
}

func (c *Client) Start(ctx context.Context, key string) error {
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 5), ctx)
	return backoff.Retry(func() error { return c.authenticate(ctx, key) }, b)
}
