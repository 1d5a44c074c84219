// Package direct holds retry layers written one inside the other.
package direct

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	"github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"
	idemretry "github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retryhttp"
)

func jitter(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

var errStatus = errors.New("bad status")

// ---- Reported ----

func LoopAroundRetryable(ctx context.Context, url string, body []byte) error {
	rc := retryablehttp.NewClient()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req, rerr := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, url, body)
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Content-Type", "application/json")
		resp, derr := rc.Do(req) // related "direct.go:30: outer retry loop" // want `3 attempts around retryablehttp\.Client\.Do, which makes 5 each: up to 15 calls on transient failures; keep one layer`
		if derr == nil {
			resp.Body.Close()
			return nil
		}
		err = derr
		log.Printf("put %s: attempt %d: %v", url, attempt, err)
		time.Sleep(jitter(time.Second))
	}
	return err
}

func LoopAroundTunedRetryable(ctx context.Context, url string) error {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 2
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		var resp *http.Response
		if resp, err = rc.Get(url); err == nil { // related "direct.go:52: outer retry loop" // want `4 attempts around retryablehttp\.Client\.Get, which makes 3 each: up to 12 calls on transient failures; keep one layer`
			return resp.Body.Close()
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

func RetryGoAroundDefaultClient(url string) error {
	return retrygo.Do(func() error {
		resp, err := retryablehttp.Get(url) // related "direct.go:63: outer retry callback" // want `10 attempts around retryablehttp\.Get, which makes 5 each: up to 50 calls on transient failures; keep one layer`
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("%w: %d", errStatus, resp.StatusCode)
		}
		return nil
	})
}

func LoopAroundRuntime(ctx context.Context, url string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = idemretry.Do(ctx, idemretry.Policy{}, func(ctx context.Context, a idemretry.Attempt) error { // related "direct.go:78: outer retry loop" // want `retries up to 3 times around retry\.Do, which retries up to 4 times: up to 12 calls on transient failures; keep one layer`
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			return resp.Body.Close()
		})
		if err == nil {
			return nil
		}
		time.Sleep(jitter(5 * time.Second))
	}
	return err
}

func LoopInLoop(ctx context.Context, hc *http.Client, urls []string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = tryAll(ctx, hc, urls); err == nil {
			return nil
		}
		for inner := 0; inner < 2; inner++ { // related "direct.go:100: outer retry loop" // want `retries up to 3 times around an inner retry loop, which retries up to 2 times: up to 6 calls per request; keep one layer`
			if err = tryAll(ctx, hc, urls); err == nil {
				return nil
			}
			time.Sleep(jitter(time.Second))
		}
		time.Sleep(jitter(10 * time.Second))
	}
	return err
}

func tryAll(ctx context.Context, hc *http.Client, urls []string) error {
	for _, u := range urls {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

func RestyInLoop(ctx context.Context, url string) error {
	rc := resty.New().SetRetryCount(2)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *resty.Response
		resp, err = rc.R().SetContext(ctx).Get(url) // related "direct.go:133: outer retry loop" // want `3 attempts around resty\.Request\.Get, which makes 3 each: up to 9 calls on transient failures; keep one layer`
		if err == nil && resp.StatusCode() < 500 {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

func RetryGoAroundStandardClient(url string) error {
	hc := retryablehttp.NewClient().StandardClient()
	return retrygo.Do(func() error {
		resp, err := hc.Get(url) // related "direct.go:146: outer retry callback" // want `10 attempts around http\.Client\.Get, which makes 5 each: up to 50 calls on transport errors; keep one layer`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(10))
}

func LoopAroundTransport(ctx context.Context, url string) error {
	hc := &http.Client{Transport: &retryhttp.Transport{Policy: idemretry.Policy{MaxAttempts: 3}}}
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var req *http.Request
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, url, nil); err != nil {
			return err
		}
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil { // related "direct.go:158: outer retry loop" // want `2 attempts around http\.Client\.Do, which makes 3 each: up to 6 calls on transport errors; keep one layer`
			return resp.Body.Close()
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

func CenkaltiAroundRetryable(ctx context.Context, url string) error {
	rc := retryablehttp.NewClient()
	b := backoff4.WithContext(backoff4.NewExponentialBackOff(), ctx)
	return backoff4.Retry(func() error {
		resp, err := rc.Get(url) // related "direct.go:175: outer retry callback" // want `retries around retryablehttp\.Client\.Get, which makes 5 attempts: attempts multiply on transient failures; keep one layer`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, b)
}

// ---- Not reported ----

// The inner client's retries are switched off.
func LoopAroundNoRetries(ctx context.Context, url string) error {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		if resp, err = rc.Get(url); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// One attempt inside.
func LoopAroundOneAttempt(url string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = retrygo.Do(func() error {
			_, err := http.Get(url)
			return err
		}, retrygo.Attempts(1))
		if err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// A single attempt outside.
func OnceAroundRetryable(ctx context.Context, url string) error {
	rc := retryablehttp.NewClient()
	return idemretry.Do(ctx, idemretry.Policy{MaxAttempts: 1}, func(ctx context.Context, a idemretry.Attempt) error {
		resp, err := rc.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Two scopes one after the other.
func Sequential(ctx context.Context, url string) error {
	rc := retryablehttp.NewClient()
	resp, err := rc.Get(url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = http.Get(url); err == nil {
			break
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// A worker handling one job per turn with a retrying client.
func Worker(ctx context.Context, jobs <-chan string) {
	rc := retryablehttp.NewClient()
	for url := range jobs {
		resp, err := rc.Get(url)
		if err != nil {
			log.Printf("job %s: %v", url, err)
			continue
		}
		resp.Body.Close()
	}
}

// A callback and its own library are one layer.
func OneLayer(url string) error {
	return retrygo.Do(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(5))
}

// resty without a retry count does not retry.
func RestyNoRetries(ctx context.Context, url string) error {
	rc := resty.New()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = rc.R().SetContext(ctx).Get(url); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}
