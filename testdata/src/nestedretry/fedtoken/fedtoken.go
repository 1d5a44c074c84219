// Package fedtoken fetches a security token from a federation service. The client's Call asks
// again, up to three times, when the answer is a 401 (it refreshes its signing key first). The
// token fetch around it leaves on any 4xx answer and backs off on the rest: the 401s the client
// retries never reach the outer loop's way round, and the attempts do not multiply. A fetch
// that goes round on every failure multiplies them.
package fedtoken

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"
)

type Client struct {
	hc       *http.Client
	endpoint string
	key      string
}

func New(endpoint, key string) *Client {
	return &Client{hc: &http.Client{Timeout: 30 * time.Second}, endpoint: endpoint, key: key}
}

func (c *Client) refreshKey() { c.key = fmt.Sprintf("%x", rand.Uint64()) }

// Call sends req, signing it; a 401 refreshes the key and sends again, up to three times.
func (c *Client) Call(ctx context.Context, body []byte) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
		if rerr != nil {
			return nil, rerr
		}
		req.Header.Set("Authorization", "Signature "+c.key)
		req.Header.Set("Content-Type", "application/json")
		resp, err = c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			break
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		c.refreshKey()
	}
	if resp.StatusCode >= 300 {
		return resp, fmt.Errorf("fedtoken: %s", resp.Status)
	}
	return resp, nil
}

type tokenResponse struct {
	Token string `json:"token"`
}

// Token fetches a token, leaving on a 4xx answer and backing off on transport errors and 5xx.
func (c *Client) Token(ctx context.Context, tenant string) (string, error) {
	body, _ := json.Marshal(map[string]string{"tenant": tenant})
	var resp *http.Response
	var err error
	for retry := 0; retry < 3; retry++ {
		if resp, err = c.Call(ctx, body); err == nil {
			break
		}
		if resp != nil && resp.StatusCode >= 400 && resp.StatusCode <= 499 {
			return "", fmt.Errorf("fedtoken: refused: %w", err)
		}
		time.Sleep(time.Duration(float64(time.Second) * (1 + rand.Float64())))
	}
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var tr tokenResponse
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil {
		return "", err
	}
	return tr.Token, nil
}

// TokenPersistently goes round on any failure, 4xx included.
func (c *Client) TokenPersistently(ctx context.Context, tenant string) (string, error) {
	body, _ := json.Marshal(map[string]string{"tenant": tenant})
	var resp *http.Response
	var err error
	for retry := 0; retry < 3; retry++ {
		if resp, err = c.Call(ctx, body); err == nil { // related "fedtoken.go:93: outer retry loop", "fedtoken.go:35: inner retry loop" // want `retries up to 3 times around Client\.Call, which retries up to 3 times: up to 9 calls per request on 401; keep one layer`
			break
		}
		time.Sleep(time.Duration(float64(time.Second) * (1 + rand.Float64())))
	}
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var tr tokenResponse
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil {
		return "", err
	}
	return tr.Token, nil
}
