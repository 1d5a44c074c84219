// Package helperloop: an SDK whose methods build their requests and hand them to one helper,
// do, that sends each request again while the server answers 5xx. The helper resends every
// method, so each create handed to it without a key can be repeated: one cause, reported once
// at the helper's loop, with the requests as related. Reads, keyed creates, and a helper that
// goes round only on 429 (the server did nothing) are not reported.
package helperloop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

type Client struct {
	base  string
	token string
	hc    *http.Client
	log   *slog.Logger
}

func New(base, token string) *Client {
	return &Client{base: base, token: token, hc: &http.Client{Timeout: 15 * time.Second}, log: slog.Default()}
}

// APIError is an answer the API refused.
type APIError struct {
	Status int
	Body   string
}

func (e *APIError) Error() string { return fmt.Sprintf("api: %d: %s", e.Status, e.Body) }

// do sends req, again while the server fails with 5xx, up to four times in all.
func (c *Client) do(ctx context.Context, req *http.Request) (*http.Response, error) {
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("User-Agent", "helperloop/1.0")
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 4; attempt++ { // related "helperloop.go:101: POST /v1/messages sent here" "helperloop.go:123: a PATCH request sent here" // want `the retry loop in Client\.do retries POST /v1/messages and 1 other request without a key: a retry can repeat their effect`
		if attempt > 0 {
			wait := time.Duration(rand.Int64N(int64(250*time.Millisecond) << attempt))
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
		}
		resp, err = c.hc.Do(req)
		if err != nil {
			c.log.Warn("request failed", "method", req.Method, "url", req.URL.String(), "attempt", attempt, "err", err)
			continue
		}
		if resp.StatusCode < 500 {
			break
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		c.log.Warn("server error", "status", resp.StatusCode, "attempt", attempt)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	if resp.StatusCode >= 400 {
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, &APIError{Status: resp.StatusCode, Body: string(b)}
	}
	return resp, nil
}

type Message struct {
	ID   string `json:"id,omitempty"`
	To   string `json:"to"`
	Text string `json:"text"`
}

func (c *Client) decode(resp *http.Response, out any) error {
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}

// SendMessage creates a message: reported, through do's loop.
func (c *Client) SendMessage(ctx context.Context, m Message) (*Message, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	var out Message
	if err := c.decode(resp, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// EditMessage patches a message: reported with SendMessage.
func (c *Client) EditMessage(ctx context.Context, id, text string) error {
	body, err := json.Marshal(map[string]string{"text": text})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.base+"/v1/messages/"+id, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.do(ctx, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Message reads one: a GET, not reported.
func (c *Client) Message(ctx context.Context, id string) (*Message, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/messages/"+id, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	var out Message
	return &out, c.decode(resp, &out)
}

// SendKeyed creates a message with a key made once per call: not reported.
func (c *Client) SendKeyed(ctx context.Context, key string, m Message) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.do(ctx, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var errThrottled = errors.New("throttled")

// throttled sends req again only when the server turned it away with 429, which it did not
// act on: resending a create is safe.
func (c *Client) throttled(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(time.Second)))):
		}
	}
	return nil, errThrottled
}

// Upload creates a file through the 429-only helper: not reported.
func (c *Client) Upload(ctx context.Context, name string, data []byte) error { // want Upload:`sends a POST request without an idempotency key`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/files?name="+name, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := c.throttled(ctx, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
