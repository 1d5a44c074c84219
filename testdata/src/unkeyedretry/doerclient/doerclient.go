// Package doerclient is a service toolkit's HTTP client: Do sends once and, when the answer
// asks for it, hands its sender to a backoff that waits in a goroutine raced with the context.
package doerclient

import (
	"context"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/context/ctxhttp"
)

type Client struct {
	MaxRetries         int
	RetryTime          time.Duration
	TotalTimeout       time.Duration
	PathsWithNoRetries map[string]bool
	HTTPClient         *http.Client
}

func New() *Client {
	return &Client{
		MaxRetries:   3,
		RetryTime:    20 * time.Millisecond,
		TotalTimeout: 10 * time.Second,
		HTTPClient:   &http.Client{Timeout: 10 * time.Second},
	}
}

type sender = func(context.Context, *http.Client, *http.Request) (*http.Response, error)

// Do sends req, and sends it again through backoff on a transport error, a 5xx or a 409.
func (c *Client) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	if id := ctx.Value(requestIDKey{}); id != nil {
		req.Header.Set("X-Request-Id", id.(string))
	}
	send := func(ctx context.Context, client *http.Client, req *http.Request) (*http.Response, error) {
		if req.ContentLength > 0 && req.GetBody != nil {
			var err error
			req.Body, err = req.GetBody()
			if err != nil {
				return nil, err
			}
		}
		return ctxhttp.Do(ctx, client, req)
	}
	if c.TotalTimeout > 0 {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, c.TotalTimeout)
			defer cancel()
		}
	}
	resp, err := send(ctx, c.HTTPClient, req)
	if !c.PathsWithNoRetries[req.URL.Path] && c.MaxRetries > 0 && shouldRetry(err, resp) {
		return c.backoff(ctx, send, c.HTTPClient, req) // related "doerclient.go:121: a POST request sent here" // want `Client.backoff in Client.Do retries a POST request without an idempotency key, so a retry can repeat its effect`
	}
	return resp, err
}

type requestIDKey struct{}

func shouldRetry(err error, resp *http.Response) bool {
	if err != nil {
		return true
	}
	return resp.StatusCode >= http.StatusInternalServerError || resp.StatusCode == http.StatusConflict
}

func (c *Client) backoff(ctx context.Context, send sender, client *http.Client, req *http.Request) (resp *http.Response, err error) {
	for attempt := 1; attempt <= c.MaxRetries; attempt++ {
		wake := make(chan struct{})
		go func() {
			time.Sleep(sleepFor(attempt, c.RetryTime))
			close(wake)
		}()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		resp, err = send(ctx, client, req)
		if ctx.Err() != nil {
			return resp, ctx.Err()
		}
		if !shouldRetry(err, resp) {
			return resp, err
		}
		if resp != nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	return resp, err
}

// sleepFor doubles the wait with each attempt and adds a few random milliseconds.
func sleepFor(attempt int, base time.Duration) time.Duration {
	n := 1 << (attempt - 1)
	return time.Duration(n)*base + time.Duration(rand.Intn(5))*time.Millisecond
}

func (c *Client) Get(ctx context.Context, rawURL string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, rawURL, http.NoBody)
	if err != nil {
		return nil, err
	}
	return c.Do(ctx, req)
}

func (c *Client) Post(ctx context.Context, rawURL, contentType string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, rawURL, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", contentType)
	return c.Do(ctx, req)
}

func (c *Client) PostForm(ctx context.Context, rawURL string, data url.Values) (*http.Response, error) {
	return c.Post(ctx, rawURL, "application/x-www-form-urlencoded", strings.NewReader(data.Encode()))
}
