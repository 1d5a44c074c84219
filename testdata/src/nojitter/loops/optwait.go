package loops

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// Waits computed by a function the caller may configure. When nothing but the caller's option
// fills it, it is nil by default and the wait guarded by "!= nil" is not made: by default the
// loop goes round at once. When the package puts a default of its own there, that default is
// what most users run.

// ClientConfig configures a searchClient.
type ClientConfig struct {
	URL          string
	MaxRetries   int
	RetryBackoff func(attempt int) time.Duration // optional; nil: no wait
}

type searchClient struct {
	hc           *http.Client
	url          string
	maxRetries   int
	retryBackoff func(attempt int) time.Duration
}

// NewSearchClient keeps the caller's backoff, nil unless given.
func NewSearchClient(cfg ClientConfig) *searchClient {
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 3
	}
	return &searchClient{hc: &http.Client{Timeout: 10 * time.Second}, url: cfg.URL, maxRetries: cfg.MaxRetries, retryBackoff: cfg.RetryBackoff}
}

// Search retries 5xx answers; it waits only when a backoff was configured.
func (c *searchClient) Search(ctx context.Context, q string) (*http.Response, error) {
	var (
		res *http.Response
		err error
	)
	for i := 0; i <= c.maxRetries; i++ { // related "optwait.go:44: retry loop" // want `retry loop waits only if retryBackoff is set \(nil by default\), so it hammers a failing dependency; add a default wait`
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, c.url+"/_search?q="+q, nil)
		if rerr != nil {
			return nil, rerr
		}
		res, err = c.hc.Do(req)
		if err == nil && res.StatusCode < 500 {
			return res, nil
		}
		if res != nil {
			res.Body.Close()
		}
		if c.retryBackoff != nil && i < c.maxRetries {
			timer := time.NewTimer(c.retryBackoff(i + 1))
			select {
			case <-ctx.Done():
				timer.Stop()
				return nil, ctx.Err()
			case <-timer.C:
			}
		}
	}
	if err == nil {
		err = fmt.Errorf("search: status %d", res.StatusCode)
	}
	return nil, err
}

func defaultRetryBackoff(attempt int) time.Duration {
	d := 100 * time.Millisecond << attempt
	return d/2 + rand.N(d/2)
}

type indexClient struct {
	hc           *http.Client
	url          string
	retryBackoff func(attempt int) time.Duration
}

// NewIndexClient fills in a jittered backoff when the caller gives none: not reported.
func NewIndexClient(cfg ClientConfig) *indexClient {
	if cfg.RetryBackoff == nil {
		cfg.RetryBackoff = defaultRetryBackoff
	}
	return &indexClient{hc: &http.Client{Timeout: 10 * time.Second}, url: cfg.URL, retryBackoff: cfg.RetryBackoff}
}

// Refresh retries 5xx answers three times, waiting the backoff.
func (c *indexClient) Refresh(ctx context.Context, index string) error {
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/"+index+"/_refresh", nil)
		if rerr != nil {
			return rerr
		}
		res, derr := c.hc.Do(req)
		if derr == nil && res.StatusCode < 500 {
			res.Body.Close()
			return nil
		}
		if derr == nil {
			res.Body.Close()
			derr = fmt.Errorf("refresh %s: status %d", index, res.StatusCode)
		}
		err = derr
		if c.retryBackoff != nil {
			timer := time.NewTimer(c.retryBackoff(i + 1))
			select {
			case <-ctx.Done():
				timer.Stop()
				return ctx.Err()
			case <-timer.C:
			}
		}
	}
	return err
}
