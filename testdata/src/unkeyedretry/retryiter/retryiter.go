// Package retryiter is an admin API client whose requests are retried by ranging over an
// iterator (range over func) that yields one attempt number per round and waits a jittered,
// growing time between them. executeMethod has named results that a deferred function reads,
// so the range body, a closure, shares err with its function: the attempt's outcome is tested
// through that shared variable.
package retryiter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"math/rand"
	"net/http"
	"net/url"
	"syscall"
	"time"
)

const (
	maxRetry    = 10
	retryUnit   = 200 * time.Millisecond
	retryCap    = time.Second
	apiPrefix   = "/admin/v2"
	contentJSON = "application/json"
)

type Client struct {
	endpoint   *url.URL
	httpClient *http.Client
	random     *rand.Rand
	log        func(format string, args ...any)
}

type request struct {
	path    string
	query   url.Values
	content []byte
}

type APIError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Status  int    `json:"-"`
}

func (e *APIError) Error() string { return e.Code + ": " + e.Message }

// attempts yields 0, 1, ... up to max-1, waiting between yields a capped exponential time
// less a random part of it; it stops when ctx is done.
func (c *Client) attempts(ctx context.Context, max int, unit, cap time.Duration) iter.Seq[int] {
	backoff := func(n int) time.Duration {
		d := unit << uint(n)
		if d > cap || d <= 0 {
			d = cap
		}
		return d - time.Duration(c.random.Float64()*float64(d)/2)
	}
	return func(yield func(int) bool) {
		if ctx.Err() != nil {
			return
		}
		for i := range max {
			if !yield(i) {
				return
			}
			select {
			case <-time.After(backoff(i)):
			case <-ctx.Done():
				return
			}
		}
	}
}

func (c *Client) newRequest(ctx context.Context, method string, r request) (*http.Request, error) {
	u := *c.endpoint
	u.Path = apiPrefix + r.path
	u.RawQuery = r.query.Encode()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(r.content))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", contentJSON)
	req.Header.Set("Accept", contentJSON)
	return req, nil
}

var okStatus = []int{http.StatusOK, http.StatusCreated, http.StatusNoContent, http.StatusPartialContent}

func retryable(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func decodeError(code int, status string, body []byte) *APIError {
	e := &APIError{Status: code}
	if json.Unmarshal(body, e) != nil {
		e.Code, e.Message = status, string(body)
	}
	return e
}

// executeMethod sends the request, retrying network errors and retryable answers.
func (c *Client) executeMethod(ctx context.Context, method string, r request) (res *http.Response, err error) {
	defer func() {
		if err != nil {
			c.httpClient.CloseIdleConnections()
		}
	}()
	retryCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range c.attempts(retryCtx, maxRetry, retryUnit, retryCap) { // related "retryiter.go:164: a POST request sent here" // want `the loop over Client\.attempts retries a POST request without an idempotency key, so a retry can repeat its effect`
		var req *http.Request
		req, err = c.newRequest(ctx, method, r)
		if err != nil {
			return nil, err
		}
		res, err = c.httpClient.Do(req)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				return nil, err
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			c.log("request %s %s failed: %v", method, r.path, err)
			continue
		}
		for _, ok := range okStatus {
			if res.StatusCode == ok {
				return res, nil
			}
		}
		body, err := io.ReadAll(io.LimitReader(res.Body, 1<<16))
		res.Body.Close()
		if err != nil {
			return nil, err
		}
		apiErr := decodeError(res.StatusCode, res.Status, body)
		if retryable(res.StatusCode) {
			c.log("request %s %s: %v, retrying", method, r.path, apiErr)
			continue
		}
		return nil, apiErr
	}
	if e := retryCtx.Err(); e != nil {
		return nil, e
	}
	return res, err
}

type Job struct {
	ID string `json:"id"`
}

// StartJob starts a job on the server.
func (c *Client) StartJob(ctx context.Context, spec []byte) (*Job, error) {
	res, err := c.executeMethod(ctx, http.MethodPost, request{path: "/jobs/start", content: spec})
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var j Job
	if err := json.NewDecoder(res.Body).Decode(&j); err != nil {
		return nil, err
	}
	return &j, nil
}

// Info only reads.
func (c *Client) Info(ctx context.Context) ([]byte, error) {
	res, err := c.executeMethod(ctx, http.MethodGet, request{path: "/info"})
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	return io.ReadAll(res.Body)
}
