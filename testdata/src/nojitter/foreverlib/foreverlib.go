// Package foreverlib is a runner's client: its requests are retried on 5xx and transport
// errors, with no attempt cap, until the caller's context is done.
package foreverlib

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

var ErrConflict = errors.New("conflict")

type Line struct {
	Pos  int    `json:"pos"`
	Text string `json:"out"`
}

type Client struct {
	base string
	hc   *http.Client
	log  *slog.Logger
}

func New(base string) *Client {
	return &Client{base: base, hc: &http.Client{Timeout: 30 * time.Second}, log: slog.Default()}
}

func (c *Client) do(ctx context.Context, path string, in any) (*http.Response, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.hc.Do(req)
}

// retry sends until the server takes it, the server refuses it, or ctx is done.
func (c *Client) retry(ctx context.Context, path string, in any) error {
	for {
		res, err := c.do(ctx, path, in)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		switch {
		case err != nil:
			c.log.Debug("request failed, retrying", "path", path, "err", err)
		case res.StatusCode == http.StatusConflict:
			res.Body.Close()
			return ErrConflict
		case res.StatusCode >= 500:
			res.Body.Close()
			c.log.Debug("server error, retrying", "path", path, "status", res.StatusCode)
		default:
			res.Body.Close()
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(10 * time.Second))))
	}
}

// Upload uploads log lines.
func (c *Client) Upload(ctx context.Context, step int64, lines []Line) error {
	return c.retry(ctx, fmt.Sprintf("/api/steps/%d/logs", step), lines)
}

// Finish marks a step done: the caller's deadline bounds it.
func (c *Client) Finish(ctx context.Context, step int64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return c.retry(ctx, fmt.Sprintf("/api/steps/%d", step), map[string]string{"state": "done"})
}

// Flush uploads what is left when the runner stops: nothing ends its retries.
func (c *Client) Flush(step int64, lines []Line) error {
	return c.retry(context.Background(), fmt.Sprintf("/api/steps/%d/logs", step), lines) // want `Client.retry retries with no attempt cap until its context is done, and this one never is: it retries for ever`
}
