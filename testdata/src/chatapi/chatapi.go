// Package chatapi is a chat service's client library: every method is a POST, and a rate-limited
// answer comes back as a *RateLimitedError that says when to try again.
package chatapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// RateLimitedError is the answer to a request the server turned away for its rate.
type RateLimitedError struct {
	RetryAfter time.Duration
}

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("chatapi: rate limited, retry after %s", e.RetryAfter)
}

type Client struct {
	token string
	hc    *http.Client
}

func New(token string) *Client {
	return &Client{token: token, hc: &http.Client{Timeout: 30 * time.Second}}
}

func (c *Client) post(ctx context.Context, method string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://chat.example.com/api/"+method, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return &RateLimitedError{RetryAfter: time.Duration(secs) * time.Second}
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("chatapi: %s: %s", method, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

type Message struct {
	Channel string `json:"channel"`
	Text    string `json:"text"`
}

// PostMessage posts a message to a channel.
func (c *Client) PostMessage(ctx context.Context, channel, text string) (string, error) {
	var out struct {
		TS string `json:"ts"`
	}
	err := c.post(ctx, "chat.postMessage", Message{Channel: channel, Text: text}, &out)
	return out.TS, err
}
