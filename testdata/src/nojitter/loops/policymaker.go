package loops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"time"
)

// A retrying HTTP client whose backoff is a function field filled by the constructor with
// what a policy maker returns (DefaultBackoff() gives a closure), unless the options name
// another: the maker's closure is how most users wait.

type BackoffFunc func(min, max time.Duration, attempt int, resp *http.Response) time.Duration

type PMOptions struct {
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int
	Timeout      time.Duration
	Backoff      BackoffFunc // nil: the default
}

type PMClient struct {
	HTTPClient *http.Client
	Backoff    BackoffFunc
	options    PMOptions
}

// DefaultPMBackoff doubles the wait from min, up to max.
func DefaultPMBackoff() BackoffFunc {
	return func(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
		mult := math.Pow(2, float64(attempt)) * float64(min)
		sleep := time.Duration(mult)
		if float64(sleep) != mult || sleep > max {
			sleep = max
		}
		return sleep
	}
}

// JitteredPMBackoff waits a random time up to the doubled wait.
func JitteredPMBackoff() BackoffFunc {
	return func(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
		d := min << attempt
		if d > max || d <= 0 {
			d = max
		}
		return time.Duration(rand.Int64N(int64(d)))
	}
}

func NewPMClient(options PMOptions) *PMClient {
	backoff := DefaultPMBackoff()
	if options.Backoff != nil {
		backoff = options.Backoff
	}
	return &PMClient{
		HTTPClient: &http.Client{Timeout: options.Timeout},
		Backoff:    backoff,
		options:    options,
	}
}

func (c *PMClient) Do(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; ; i++ {
		resp, err = c.HTTPClient.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if i >= c.options.RetryMax {
			break
		}
		if resp != nil {
			resp.Body.Close()
		}
		wait := c.Backoff(c.options.RetryWaitMin, c.options.RetryWaitMax, i, resp)
		timer := time.NewTimer(wait) // related "policymaker.go:71: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		case <-timer.C:
		}
	}
	if err == nil {
		err = fmt.Errorf("giving up after %d attempts: %s", c.options.RetryMax+1, resp.Status)
	}
	return nil, err
}

// ---- Not reported: the maker's closure draws its wait at random ----

type PMJClient struct {
	HTTPClient *http.Client
	Backoff    BackoffFunc
	RetryMax   int
}

func NewPMJClient(options PMOptions) *PMJClient {
	backoff := JitteredPMBackoff()
	if options.Backoff != nil {
		backoff = options.Backoff
	}
	return &PMJClient{HTTPClient: &http.Client{Timeout: options.Timeout}, Backoff: backoff, RetryMax: options.RetryMax}
}

func (c *PMJClient) Get(ctx context.Context, url string) (*http.Response, error) {
	for i := 0; ; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.HTTPClient.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if resp != nil {
			resp.Body.Close()
		}
		if i >= c.RetryMax {
			return nil, errors.Join(err, fmt.Errorf("giving up on %s", url))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(c.Backoff(time.Second, time.Minute, i, resp)):
		}
	}
}
