// Package retrytransport gives an API client's http.Client transports that retry failed
// round trips. Whoever installs one sends its POSTs through it too.
package retrytransport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Transport retries a round trip that fails or is answered 429 or 5xx, whatever the request's
// method: a POST that reached the server before its answer was lost is sent again.
type Transport struct {
	Base       http.RoundTripper
	MaxRetries int
	Headers    map[string]string
	Log        *slog.Logger
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	for k, v := range t.Headers {
		req.Header.Set(k, v)
	}
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, fmt.Errorf("buffering request body: %w", err)
		}
		req.Body.Close()
		body = b
	}
	var (
		resp *http.Response
		err  error
	)
	for n := 0; n <= t.MaxRetries; n++ { // want `Transport\.RoundTrip resends requests of every method without an idempotency key, so a retried POST can take effect twice`
		if body != nil {
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		if n > 0 {
			d := time.Duration(1<<n) * 100 * time.Millisecond
			time.Sleep(d/2 + rand.N(d/2))
		}
		resp, err = t.Base.RoundTrip(req)
		if err != nil {
			t.Log.Warn("round trip failed", "url", req.URL.Redacted(), "attempt", n, "err", err)
			continue
		}
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
			return resp, nil
		}
		if n < t.MaxRetries {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	return resp, err
}

// idempotent are the methods a repeat cannot duplicate, as net/http's own transport says.
var idempotent = []string{http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete}

// SafeTransport retries only requests whose method is idempotent: not reported.
type SafeTransport struct {
	Base     http.RoundTripper
	Attempts int
}

func (t *SafeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !slices.Contains(idempotent, req.Method) || req.Body != nil && req.GetBody == nil {
		return t.Base.RoundTrip(req)
	}
	var lastErr error
	for attempt := range t.Attempts {
		if attempt > 0 {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req.Body = body
			time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
		}
		resp, err := t.Base.RoundTrip(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = errors.New(resp.Status)
		}
		lastErr = err
	}
	return nil, fmt.Errorf("after %d attempts: %w", t.Attempts, lastErr)
}

// keyedTransport retries a request only when the caller keyed it: not reported.
type keyedTransport struct {
	base http.RoundTripper
}

func (t keyedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	retryable := req.Header.Get("Idempotency-Key") != ""
	for attempt := 0; ; attempt++ {
		resp, err := t.base.RoundTrip(req)
		if err == nil || !retryable || attempt == 3 || req.GetBody == nil {
			return resp, err
		}
		body, berr := req.GetBody()
		if berr != nil {
			return nil, errors.Join(err, berr)
		}
		req.Body = body
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond * time.Duration(1+rand.IntN(2)))
	}
}

// throttleTransport goes round only when the server turned the request away with 429 and
// said when to come back: the request had no effect. Not reported.
type throttleTransport struct {
	base http.RoundTripper
}

func (t *throttleTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for range 5 {
		resp, err := t.base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		resp.Body.Close()
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		time.Sleep(time.Duration(secs)*time.Second + time.Duration(rand.IntN(500))*time.Millisecond)
		if req.GetBody != nil {
			b, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req.Body = b
		}
	}
	return nil, errors.New("rate limited")
}

// NewClient returns an http.Client whose transport retries.
func NewClient(timeout time.Duration, log *slog.Logger) *http.Client {
	return &http.Client{
		Timeout:   timeout,
		Transport: &Transport{Base: http.DefaultTransport, MaxRetries: 3, Log: log},
	}
}

// reauth sends a request again, once, after refreshing an expired token; and otherwise, on
// a dropped connection, up to twice more: a POST whose answer was lost is sent again.
type reauth struct {
	next    http.RoundTripper
	refresh func() (string, error)
	token   string
}

func (r *reauth) RoundTrip(req *http.Request) (*http.Response, error) {
	var lastErr error
	for i := 0; i < 3; i++ { // want `reauth\.RoundTrip resends requests of every method without an idempotency key, so a retried POST can take effect twice`
		req.Header.Set("Authorization", "Bearer "+r.token)
		resp, err := r.next.RoundTrip(req)
		if err != nil {
			lastErr = err
			time.Sleep(time.Duration(rand.IntN(1000)) * time.Millisecond)
			continue
		}
		if resp.StatusCode == http.StatusUnauthorized {
			resp.Body.Close()
			tok, err := r.refresh()
			if err != nil {
				return nil, err
			}
			r.token = tok
			continue
		}
		return resp, nil
	}
	return nil, lastErr
}

// echoTransport logs the key the server echoes back in its answer; it never looks at the
// request's own headers, so it resends unkeyed POSTs all the same.
type echoTransport struct {
	base http.RoundTripper
	log  *slog.Logger
}

func (t *echoTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := range 3 { // want `echoTransport\.RoundTrip resends requests of every method without a key, so a retried POST can take effect twice`
		if attempt > 0 {
			time.Sleep(time.Duration(rand.IntN(500)) * time.Millisecond)
		}
		resp, err = t.base.RoundTrip(req)
		if err == nil && resp.StatusCode < 500 {
			t.log.Debug("answered", "key", resp.Header.Get("Idempotency-Key"), "status", resp.StatusCode)
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
	}
	return resp, err
}
