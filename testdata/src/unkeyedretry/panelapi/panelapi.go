// Package panelapi is a client of a control panel's API: every request goes through one
// helper that makes it from the caller's method and path and retries it with a backoff.
package panelapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Client struct {
	http        *http.Client
	base        string
	tokenID     string
	token       string
	maxAttempts int
	log         *slog.Logger
}

func New(base, tokenID, token string) *Client {
	return &Client{http: &http.Client{Timeout: 15 * time.Second}, base: base, tokenID: tokenID, token: token, log: slog.Default()}
}

type Response struct {
	*http.Response
}

func (r *Response) HasError() bool { return r.Response == nil || r.StatusCode >= 300 }

func (r *Response) Error() error {
	if r.Response == nil {
		return errors.New("panel: no response")
	}
	b, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
	return fmt.Errorf("panel: %s: %s", r.Status, bytes.TrimSpace(b))
}

// Get sends a GET with the query given.
func (c *Client) Get(ctx context.Context, path string, query map[string]string) (*Response, error) {
	return c.request(ctx, http.MethodGet, path, nil, func(r *http.Request) {
		q := r.URL.Query()
		for k, v := range query {
			q.Set(k, v)
		}
		r.URL.RawQuery = q.Encode()
	})
}

// Post sends data as JSON.
func (c *Client) Post(ctx context.Context, path string, data any) (*Response, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	return c.request(ctx, http.MethodPost, path, bytes.NewBuffer(b))
}

// Delete removes what path names.
func (c *Client) Delete(ctx context.Context, path string) (*Response, error) {
	return c.request(ctx, http.MethodDelete, path, nil)
}

// requestOnce makes the request and sends it once.
func (c *Client) requestOnce(ctx context.Context, method, path string, body io.Reader, opts ...func(*http.Request)) (*Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s.%s", c.tokenID, c.token))
	for _, o := range opts {
		o(req)
	}
	c.log.Debug("panel request", "method", method, "url", req.URL.String())
	res, err := c.http.Do(req)
	return &Response{res}, err
}

// request sends the request again with a backoff when it fails or the panel answers 5xx.
func (c *Client) request(ctx context.Context, method, path string, body *bytes.Buffer, opts ...func(*http.Request)) (*Response, error) {
	var res *Response
	err := backoff.Retry(func() error { // related "panelapi.go:63: a POST request sent here" // want `backoff\.Retry in Client\.request retries a POST request without an idempotency key, so a retry can repeat its effect`
		var b bytes.Buffer
		if body != nil {
			if _, err := b.Write(body.Bytes()); err != nil {
				return backoff.Permanent(fmt.Errorf("copy body: %w", err))
			}
		}
		r, err := c.requestOnce(ctx, method, path, &b, opts...)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return backoff.Permanent(err)
			}
			return fmt.Errorf("panel request: %w", err)
		}
		res = r
		if r.HasError() {
			defer r.Body.Close()
			if r.StatusCode >= 400 && r.StatusCode < 500 {
				return backoff.Permanent(r.Error())
			}
			return r.Error()
		}
		return nil
	}, c.backoff(ctx))
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (c *Client) backoff(ctx context.Context) backoff.BackOffContext {
	b := backoff.NewExponentialBackOff()
	b.MaxInterval = 12 * time.Second
	b.MaxElapsedTime = 30 * time.Second
	if c.maxAttempts > 0 {
		return backoff.WithContext(backoff.WithMaxRetries(b, uint64(c.maxAttempts)), ctx)
	}
	return backoff.WithContext(b, ctx)
}

// ---- The calls of the API: POSTs through Post, reads through Get ----

type Activity struct {
	Event     string    `json:"event"`
	Server    string    `json:"server"`
	Timestamp time.Time `json:"timestamp"`
}

// SendActivity records activity: a POST that creates rows, retried by request.
func (c *Client) SendActivity(ctx context.Context, batch []Activity) error {
	res, err := c.Post(ctx, "/activity", map[string]any{"data": batch})
	if err != nil {
		return err
	}
	res.Body.Close()
	return nil
}

// ServerConfig reads a server's configuration: a GET.
func (c *Client) ServerConfig(ctx context.Context, uuid string) (json.RawMessage, error) {
	res, err := c.Get(ctx, "/servers/"+uuid, map[string]string{"include": "egg"})
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var out json.RawMessage
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// RemoveBackup deletes a backup: a DELETE.
func (c *Client) RemoveBackup(ctx context.Context, id string) error {
	res, err := c.Delete(ctx, "/backups/"+id)
	if err != nil {
		return err
	}
	return res.Body.Close()
}

// ---- Not reported: a helper that retries any method, called only with GET and PUT ----

type Mirror struct {
	http *http.Client
	base string
}

func (m *Mirror) send(ctx context.Context, method, path string, body []byte) (*http.Response, error) {
	var resp *http.Response
	err := backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, method, m.base+path, bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Set("Content-Type", "application/octet-stream")
		r, err := m.http.Do(req)
		if err != nil {
			return err
		}
		if r.StatusCode >= 500 {
			r.Body.Close()
			return fmt.Errorf("mirror: %s", r.Status)
		}
		resp = r
		return nil
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 5))
	return resp, err
}

func (m *Mirror) Fetch(ctx context.Context, name string) ([]byte, error) {
	resp, err := m.send(ctx, http.MethodGet, "/objects/"+name, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func (m *Mirror) Store(ctx context.Context, name string, data []byte) error {
	resp, err := m.send(ctx, http.MethodPut, "/objects/"+name, data)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
