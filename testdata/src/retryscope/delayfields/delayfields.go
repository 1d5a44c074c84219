// Package delayfields holds SDK clients whose wait between attempts is computed by a
// function kept in a field or a package variable: the package's default decides how most
// users wait.
package delayfields

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand"
	"net/http"
	"time"
)

// Config is what a user may set; zero fields take the package's defaults.
type Config struct {
	BaseURL    string
	MaxRetries int
	// RetryWait computes the wait before attempt n; nil means the default.
	RetryWait func(attempt int) time.Duration
	HTTP      *http.Client
}

type Client struct {
	cfg Config
	hc  *http.Client
}

// defaultRetryWait doubles from 500 ms: no randomness.
func defaultRetryWait(attempt int) time.Duration {
	return time.Duration(math.Pow(2, float64(attempt))) * 500 * time.Millisecond
}

func New(cfg Config) *Client {
	if cfg.RetryWait == nil {
		cfg.RetryWait = defaultRetryWait
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 3
	}
	hc := cfg.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Client{cfg: cfg, hc: hc}
}

type apiError struct {
	Status int
	Body   string
}

func (e *apiError) Error() string { return fmt.Sprintf("status %d: %s", e.Status, e.Body) }

// Get fetches a resource, retrying 5xx answers and transport errors.
func (c *Client) Get(ctx context.Context, path string, out any) error { // want Get:`retries: retry loop at delayfields.go:63, attempts=variable` Get:`waits: backoff`
	var lastErr error
	for attempt := 0; attempt <= c.cfg.MaxRetries; attempt++ { // want `retry loop: attempts=variable wait=backoff deadline=context`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.BaseURL+path, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", "delayfields/1.0")
		resp, err := c.hc.Do(req)
		if err != nil {
			lastErr = err
			log.Printf("get %s: attempt %d: %v", path, attempt, err)
			time.Sleep(c.cfg.RetryWait(attempt))
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode >= 500 {
			lastErr = &apiError{Status: resp.StatusCode, Body: string(body)}
			time.Sleep(c.cfg.RetryWait(attempt))
			continue
		}
		if resp.StatusCode >= 400 {
			return &apiError{Status: resp.StatusCode, Body: string(body)}
		}
		return json.Unmarshal(body, out)
	}
	return fmt.Errorf("get %s: %w", path, lastErr)
}

// A package variable holding the default policy, which tests may replace.
var backoffPolicy = func(n int) time.Duration { return 100 * time.Millisecond << n }

type Uploader struct {
	hc  *http.Client
	url string
}

func (u *Uploader) Put(ctx context.Context, name string, data []byte) error { // want Put:`retries: retry loop at delayfields.go:105, attempts=5` Put:`waits: backoff`
	var err error
	for n := 0; n < 5; n++ { // want `retry loop: attempts=5 wait=backoff deadline=context`
		if err = u.put(ctx, name, data); err == nil {
			return nil
		}
		var ae *apiError
		if errors.As(err, &ae) && ae.Status < 500 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoffPolicy(n)):
		}
	}
	return err
}

func (u *Uploader) put(ctx context.Context, name string, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.url+"/"+name, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := u.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
		return &apiError{Status: resp.StatusCode, Body: string(b)}
	}
	return nil
}

// A jittered default: not reported as fixed.
type Notifier struct {
	hc    *http.Client
	url   string
	delay func(int) time.Duration
}

func NewNotifier(url string) *Notifier {
	return &Notifier{hc: &http.Client{Timeout: 10 * time.Second}, url: url, delay: func(n int) time.Duration {
		return time.Duration(rand.Int63n(int64(time.Second << n)))
	}}
}

func (nt *Notifier) Notify(ctx context.Context, msg string) error { // want Notify:`retries: retry loop at delayfields.go:155, attempts=4` Notify:`waits: jittered`
	var err error
	for n := 0; n < 4; n++ { // want `retry loop: attempts=4 wait=jittered deadline=context`
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPut, nt.url, bytes.NewBufferString(msg))
		if rerr != nil {
			return rerr
		}
		resp, derr := nt.hc.Do(req)
		if derr == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			derr = fmt.Errorf("status %d", resp.StatusCode)
		}
		err = derr
		time.Sleep(nt.delay(n))
	}
	return err
}

// Only the caller's function: unknown.
type Poster struct {
	hc    *http.Client
	url   string
	Delay func(int) time.Duration
}

func (p *Poster) Send(ctx context.Context, msg string) error { // want Send:`retries: retry loop at delayfields.go:183, attempts=4` Send:`waits: unknown`
	var err error
	for n := 0; n < 4; n++ { // want `retry loop: attempts=4 wait=unknown deadline=context`
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPut, p.url, bytes.NewBufferString(msg))
		if rerr != nil {
			return rerr
		}
		resp, derr := p.hc.Do(req)
		if derr == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			derr = fmt.Errorf("status %d", resp.StatusCode)
		}
		err = derr
		time.Sleep(p.Delay(n))
	}
	return err
}
