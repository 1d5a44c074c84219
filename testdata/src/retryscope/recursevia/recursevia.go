// Package recursevia holds request functions that try again by recursion: through a helper of
// the package that waits and calls them again, and directly with a delay they grow.
package recursevia

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

type Client struct {
	hc         *http.Client
	base       string
	maxBackoff time.Duration
}

type ResponseHandler func(req *http.Request, resp *http.Response, out any) ([]byte, error)

func decodeJSON(req *http.Request, resp *http.Response, out any) ([]byte, error) {
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if out != nil {
		return body, json.Unmarshal(body, out)
	}
	return body, nil
}

// execute sends req; after a transport error or a 502-504 it hands over to retry, which waits
// and calls execute again with one attempt less and twice the delay.
func (c *Client) execute(ctx context.Context, req *http.Request, retries int, backoff time.Duration, out any, handle ResponseHandler) ([]byte, error) { // want `retrying recursion: attempts=variable wait=backoff deadline=context` execute:`retries: retrying recursion at recursevia.go:39, attempts=variable`
	resp, err := c.hc.Do(req.WithContext(ctx))
	if err != nil {
		if retries > 0 && !errors.Is(err, context.Canceled) {
			return c.retry(ctx, req, err, retries, backoff, out, handle)
		}
		return nil, fmt.Errorf("request %s %s: %w", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if retries > 0 {
			return c.retry(ctx, req, fmt.Errorf("HTTP %d", resp.StatusCode), retries, backoff, out, handle)
		}
	}
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("request %s %s: %s", req.Method, req.URL.Path, resp.Status)
	}
	return handle(req, resp, out)
}

func (c *Client) retry(ctx context.Context, req *http.Request, cause error, retries int, backoff time.Duration, out any, handle ResponseHandler) ([]byte, error) { // want retry:`retries: retrying recursion at recursevia.go:39, attempts=variable via execute`
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, cause
		}
		req.Body = body
	}
	backoff = min(backoff, c.maxBackoff)
	log.Printf("request %s %s failed: %v; retrying in %s", req.Method, req.URL.Path, cause, backoff)
	select {
	case <-time.After(backoff):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return c.execute(ctx, req, retries-1, backoff*2, out, handle)
}

func (c *Client) Get(ctx context.Context, path string, out any) error { // want Get:`retries: retrying recursion at recursevia.go:39, attempts=4 via execute`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	_, err = c.execute(ctx, req, 3, time.Second, out, decodeJSON)
	return err
}

// follow goes to the next page through a helper that makes a new request for it: each call
// asks for something else, it does not retry.
func (c *Client) follow(ctx context.Context, url string, pages int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if next := resp.Header.Get("Link"); next != "" && pages > 0 {
		return c.next(ctx, next, pages)
	}
	return io.ReadAll(resp.Body)
}

func (c *Client) next(ctx context.Context, link string, pages int) ([]byte, error) {
	return c.follow(ctx, c.base+link, pages-1)
}

// send tries again by calling itself, growing a jittered delay: the delay is not part of what
// is sent, so this is the same request again.
func (c *Client) send(ctx context.Context, retries int, wait time.Duration, body []byte) error { // want `retrying recursion: attempts=variable wait=jittered deadline=context` send:`retries: retrying recursion at recursevia.go:111, attempts=variable`
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/v1/objects", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if retries--; retries > 0 {
			wait += time.Duration(rand.Int64N(int64(wait))) / 2
			time.Sleep(wait)
			return c.send(ctx, retries, wait, body)
		}
		return err
	}
	return resp.Body.Close()
}

// join and rejoin call each other: rejoin waits, refreshes the coordinator (calling itself
// again while that fails) and joins again. The cycle is one retry, rejoin's: join is not a
// second scope around it.
func (c *Client) join(ctx context.Context, group string, retries int) error { // want join:`retries: retrying recursion at recursevia.go:146, attempts=variable via rejoin`
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/groups/"+group+"/members", nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if retries <= 0 {
			return err
		}
		return c.rejoin(ctx, group, retries, true)
	}
	return resp.Body.Close()
}

func (c *Client) rejoin(ctx context.Context, group string, retries int, refresh bool) error { // want `retrying recursion: attempts=variable wait=fixed deadline=context` rejoin:`retries: retrying recursion at recursevia.go:146, attempts=variable`
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(2 * time.Second):
	}
	if refresh {
		if err := c.refreshCoordinator(ctx); err != nil {
			if retries <= 0 {
				return err
			}
			return c.rejoin(ctx, group, retries-1, true)
		}
	}
	return c.join(ctx, group, retries-1)
}

func (c *Client) refreshCoordinator(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/coordinator", nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
