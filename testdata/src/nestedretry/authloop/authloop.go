// Package authloop sends requests that may need credentials: it sends without any, and on a
// 401 asks again with the access mode the server asked for. Its transport retries network
// failures (up to 3 attempts). The loop around it goes round only on an authentication
// failure, which the transport never retries: nothing multiplies.
package authloop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"nestedretry/autherrs"
)

type Access struct {
	Mode string // "none", "basic", "negotiate"
	URL  string
}

type Client struct {
	hc    *http.Client
	creds map[string]string
	modes map[string]string // the access mode each URL asked for
}

func New() *Client {
	return &Client{hc: &http.Client{Timeout: 30 * time.Second}, creds: map[string]string{}, modes: map[string]string{}}
}

func (c *Client) accessFor(url string) Access {
	if m, ok := c.modes[url]; ok {
		return Access{Mode: m, URL: url}
	}
	return Access{Mode: "none", URL: url}
}

// send sends req with the credentials access asks for, retrying network failures.
func (c *Client) send(ctx context.Context, access Access, req *http.Request) (*http.Response, error) {
	if access.Mode == "basic" {
		req.Header.Set("Authorization", "Basic "+c.creds[access.URL])
	}
	var lastErr error
	for attempt := range 3 {
		resp, err := c.hc.Do(req.WithContext(ctx))
		if err != nil {
			lastErr = err
			time.Sleep(time.Duration(attempt+1)*200*time.Millisecond + rand.N(200*time.Millisecond))
			continue
		}
		if resp.StatusCode == http.StatusUnauthorized {
			resp.Body.Close()
			c.modes[access.URL] = "basic"
			req.Header.Del("Authorization")
			return nil, autherrs.NewAuthError(fmt.Errorf("%s: %s", req.URL, resp.Status))
		}
		return resp, nil
	}
	return nil, autherrs.Wrap(lastErr, "sending "+req.URL.String())
}

// Do sends req, asking again with the access mode a 401 named, at most three times.
func (c *Client) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	access := c.accessFor(req.URL.String())
	for i := range 3 {
		resp, err := c.send(ctx, access, req)
		if err == nil || !autherrs.IsAuthError(err) {
			return resp, err
		}
		if req.Header.Get("Authorization") != "" {
			return resp, err // rejected with credentials: asking again changes nothing
		}
		if i < 2 {
			access = c.accessFor(req.URL.String())
		}
	}
	return nil, fmt.Errorf("too many authentication attempts")
}

// Fetch sends req again while the network fails: the transport retries the same failures.
// Reported.
func (c *Client) Fetch(ctx context.Context, req *http.Request) (*http.Response, error) {
	access := c.accessFor(req.URL.String())
	for attempt := 0; ; attempt++ {
		resp, err := c.send(ctx, access, req) // related "authloop.go:85: outer retry loop", "authloop.go:45: inner retry loop" // want `5 attempts around Client.send, which makes 3 each: up to 15 calls on transport errors; keep one layer`
		if err == nil || !autherrs.IsNetworkError(err) || attempt == 4 {
			return resp, err
		}
		time.Sleep(time.Second + rand.N(time.Second))
	}
}
