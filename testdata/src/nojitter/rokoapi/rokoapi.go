// Package rokoapi is a REST client that retries 429 answers with buildkite/roko. The
// strategy roko requires is a placeholder, Constant(0): every retry's wait is what the
// callback sets with rt.SetNextInterval, as long as the server asks, or a backoff of its own.
package rokoapi

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/buildkite/roko"
)

// Client sends requests to the API.
type Client struct {
	hc         *http.Client
	maxRetries int
}

// retryDelay is the wait the server asks for, or a doubling backoff, with up to a second of
// jitter either way.
func retryDelay(resp *http.Response, attempt int) time.Duration {
	d := time.Duration(1<<attempt) * time.Second
	if s, err := strconv.Atoi(resp.Header.Get("RateLimit-Reset")); err == nil && s > 0 {
		d = time.Duration(s) * time.Second
	}
	if d > 30*time.Second {
		d = 30 * time.Second
	}
	return d + time.Duration(rand.N(int64(time.Second)))
}

// ---- Not reported: the wait the callback sets is jittered ----

// Do sends req, retrying while the API answers 429.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	r := roko.NewRetrier(roko.WithMaxAttempts(c.maxRetries+1), roko.WithStrategy(roko.Constant(0)))
	err := r.DoWithContext(req.Context(), func(rt *roko.Retrier) error {
		var err error
		resp, err = c.hc.Do(req)
		if err != nil {
			rt.Break()
			return err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return nil
		}
		if rt.AttemptCount() < c.maxRetries {
			rt.SetNextInterval(retryDelay(resp, rt.AttemptCount()))
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return fmt.Errorf("rate limited: %s", resp.Status)
	})
	return resp, err
}

// ---- Reported: the wait the callback sets is the same every time ----

// DoFixed sends req, retrying while the API answers 429, a second apart.
func (c *Client) DoFixed(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	r := roko.NewRetrier(roko.WithMaxAttempts(c.maxRetries+1), roko.WithStrategy(roko.Constant(0)))
	err := r.DoWithContext(req.Context(), func(rt *roko.Retrier) error {
		var err error
		resp, err = c.hc.Do(req)
		if err != nil {
			rt.Break()
			return err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return nil
		}
		rt.SetNextInterval(time.Second) // related "rokoapi.go:68: retry callback" // want `roko\.Retrier\.DoWithContext waits a fixed delay: clients that failed together retry together; add jitter`
		resp.Body.Close()
		return fmt.Errorf("rate limited: %s", resp.Status)
	})
	return resp, err
}
