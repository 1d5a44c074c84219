// Package callbackhelper: a generated SDK whose every operation hands its request, in a
// closure, to one generic retry helper of the package. The helper goes round on 429 and 5xx
// answers and on transport errors, whatever the method: one cause, reported once at its loop,
// with each create and update it repeats as a related position.
package callbackhelper

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

type Backoff struct {
	MaxRetries int
	MaxDelay   time.Duration
}

type Client struct {
	http    *http.Client
	baseURL string
	backoff *Backoff
}

func New(baseURL string) *Client {
	return &Client{
		http:    &http.Client{Timeout: 30 * time.Second},
		baseURL: baseURL,
		backoff: &Backoff{MaxRetries: 3, MaxDelay: 10 * time.Second},
	}
}

func send(c *Client, method, path string, body any) (*http.Response, error) {
	var payload io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.baseURL+path, payload)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	return c.http.Do(req)
}

func POST(c *Client, path string, body any) (*http.Response, error) { // want POST:"sends a POST request without an idempotency key"
	return send(c, http.MethodPost, path, body)
}

func PATCH(c *Client, path string, body any) (*http.Response, error) { // want PATCH:"sends a PATCH request without an idempotency key"
	return send(c, http.MethodPatch, path, body)
}

func GET(c *Client, path string) (*http.Response, error) {
	return send(c, http.MethodGet, path, nil)
}

// doWithRetries runs op, and again after a transport error, a 429 or a 5xx, waiting a
// jittered, growing delay; it decodes a 2xx answer into a T.
func doWithRetries[T any](op func() (*http.Response, error), b *Backoff) (*T, error) {
	delay := 500 * time.Millisecond
	var lastErr error
	for attempt := 0; attempt <= b.MaxRetries; attempt++ { // related "services.go:18: a POST request sent here" "services.go:25: a POST request sent here" "services.go:32: a PATCH request sent here" // want `the retry loop in doWithRetries retries a POST request and 2 other requests with no idempotency key`
		resp, err := op()
		switch {
		case err != nil:
			lastErr = err
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
			resp.Body.Close()
			lastErr = fmt.Errorf("status %d", resp.StatusCode)
		case resp.StatusCode >= 300:
			defer resp.Body.Close()
			msg, _ := io.ReadAll(resp.Body)
			return nil, fmt.Errorf("status %d: %s", resp.StatusCode, msg)
		default:
			defer resp.Body.Close()
			var out T
			if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
				return nil, err
			}
			return &out, nil
		}
		wait := min(delay, b.MaxDelay)
		wait = wait/2 + rand.N(wait/2+1)
		log.Printf("attempt %d failed (%v); retrying in %s", attempt+1, lastErr, wait)
		time.Sleep(wait)
		delay *= 2
	}
	return nil, fmt.Errorf("giving up after %d attempts: %w", b.MaxRetries+1, lastErr)
}
