// Package handedcount is a chat SDK whose request function retries by recursion, counting down
// the retries its caller hands in (params.MaxAttempts-1). A method that asks for one attempt
// (an endpoint that answers 5xx on purpose) does not retry, so a loop around it is one layer; a
// loop around a method that keeps the default count multiplies the attempts.
package handedcount

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

type Client struct {
	hc      *http.Client
	base    string
	Retries int
}

type Request struct {
	Method      string
	Path        string
	Out         any
	MaxAttempts int
	Backoff     time.Duration
}

func (c *Client) Do(ctx context.Context, params Request) error {
	if params.MaxAttempts == 0 {
		params.MaxAttempts = 1 + c.Retries
	}
	if params.Backoff == 0 {
		params.Backoff = time.Second
	}
	req, err := http.NewRequestWithContext(ctx, params.Method, c.base+params.Path, nil)
	if err != nil {
		return err
	}
	return c.execute(ctx, req, params.MaxAttempts-1, params.Backoff, params.Out)
}

func (c *Client) execute(ctx context.Context, req *http.Request, retries int, backoff time.Duration, out any) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		if retries > 0 && !errors.Is(err, context.Canceled) {
			return c.again(ctx, req, retries, backoff, out)
		}
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 && retries > 0 {
		return c.again(ctx, req, retries, backoff, out)
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s", req.Method, req.URL.Path, resp.Status)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(body, out)
}

func (c *Client) again(ctx context.Context, req *http.Request, retries int, backoff time.Duration, out any) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(backoff):
	}
	return c.execute(ctx, req, retries-1, backoff*2, out)
}

type Versions struct {
	Versions []string `json:"versions"`
}

// Versions keeps the client's default count.
func (c *Client) Versions(ctx context.Context) (*Versions, error) {
	var v Versions
	return &v, c.Do(ctx, Request{Method: http.MethodGet, Path: "/versions", Out: &v})
}

// Ping asks for one attempt: the server answers 5xx on purpose while it is not ready.
func (c *Client) Ping(ctx context.Context) error {
	return c.Do(ctx, Request{Method: http.MethodGet, Path: "/ping", MaxAttempts: 1})
}

// WaitReady pings until the server is ready: one layer.
func (c *Client) WaitReady(ctx context.Context) error {
	for i := 0; i < 30; i++ {
		if err := c.Ping(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return errors.New("server not ready")
}

// WaitVersions asks for the versions until it gets them, around a method that retries too.
func (c *Client) WaitVersions(ctx context.Context) (*Versions, error) {
	for i := 0; i < 30; i++ {
		v, err := c.Versions(ctx) // related "handedcount.go:108: outer retry loop", "handedcount.go:45: inner retrying recursion" // want `retries up to 30 times around Client\.Versions, which retries too: attempts multiply; keep one layer`
		if err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, errors.New("no versions")
}
