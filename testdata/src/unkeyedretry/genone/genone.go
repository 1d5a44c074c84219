// Package genone is a small API client in one package: its request helper copies the request
// it is handed for each attempt and resends it on 5xx, whatever the method; a second helper
// resends only the methods that are safe to repeat.
package genone

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

type Client struct {
	base  string
	token string
	hc    *http.Client
	log   *slog.Logger
	tries int
}

func New(base, token string) *Client {
	return &Client{base: strings.TrimRight(base, "/"), token: token, hc: &http.Client{Timeout: 20 * time.Second}, log: slog.Default(), tries: 4}
}

type Widget struct {
	ID    string `json:"id,omitempty"`
	Name  string `json:"name"`
	Color string `json:"color,omitempty"`
}

func (c *Client) newRequest(ctx context.Context, method, path string, v any) (*http.Request, error) {
	var body io.Reader
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// cloneRequest copies req for another attempt, with a fresh reader over the body read once.
func cloneRequest(req *http.Request, body []byte) *http.Request {
	r := *req
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	return &r
}

func (c *Client) send(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		body = b
	}
	var lastErr error
	for attempt := 0; attempt < c.tries; attempt++ { // related "genone.go:115: POST /widgets sent here" // want `the retry loop in Client.send retries POST /widgets without an idempotency key, so a retry can repeat its effect`
		resp, err := c.hc.Do(cloneRequest(req, body))
		switch {
		case err != nil:
			lastErr = err
		case resp.StatusCode >= 500:
			resp.Body.Close()
			lastErr = fmt.Errorf("%s %s: %s", req.Method, req.URL.Path, resp.Status)
		default:
			return resp, nil
		}
		c.log.Warn("request failed", "method", req.Method, "attempt", attempt+1, "err", lastErr)
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second << attempt))))
	}
	return nil, lastErr
}

var idempotent = map[string]bool{http.MethodGet: true, http.MethodHead: true, http.MethodPut: true, http.MethodDelete: true}

// sendSafe resends only the methods that are safe to repeat.
func (c *Client) sendSafe(req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if !idempotent[req.Method] || attempt+1 >= c.tries || req.Body != nil {
			return resp, err
		}
		if resp != nil {
			resp.Body.Close()
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second << attempt))))
	}
}

func (c *Client) CreateWidget(ctx context.Context, w Widget) (*Widget, error) {
	req, err := c.newRequest(ctx, http.MethodPost, "/widgets", w)
	if err != nil {
		return nil, err
	}
	resp, err := c.send(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out Widget
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("decoding widget: %w", err)
	}
	return &out, nil
}

func (c *Client) GetWidget(ctx context.Context, id string) (*Widget, error) {
	req, err := c.newRequest(ctx, http.MethodGet, "/widgets/"+id, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.send(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out Widget
	return &out, json.NewDecoder(resp.Body).Decode(&out)
}

// ArchiveWidget goes through sendSafe: its POST is sent once.
func (c *Client) ArchiveWidget(ctx context.Context, id string) error { // want ArchiveWidget:"sends a POST request without an idempotency key"
	req, err := c.newRequest(ctx, http.MethodPost, "/widgets/"+id+"/archive", nil)
	if err != nil {
		return err
	}
	resp, err := c.sendSafe(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("archive %s: %s", id, resp.Status)
	}
	return nil
}
