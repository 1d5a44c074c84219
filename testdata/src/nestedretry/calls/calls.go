// Package calls reaches inner retry layers through the functions a scope calls, in this
// package and in another (known through its RetriesFact).
package calls

import (
	"context"
	"log"
	"math/rand/v2"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/hashicorp/go-retryablehttp"
	sethretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"

	"nestedretry/sdk"
)

func jitter(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

type service struct {
	rc  *retryablehttp.Client
	sdk *sdk.Client
	url string
}

func newService(url string) *service {
	return &service{rc: retryablehttp.NewClient(), sdk: &sdk.Client{HTTP: http.DefaultClient, BaseURL: url}, url: url}
}

// fetch sends through the self-retrying client.
func (s *service) fetch(ctx context.Context, id string) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, s.url+"/items/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := s.rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// refresh calls fetch: two calls from the client.
func (s *service) refresh(ctx context.Context, id string) error {
	if err := s.fetch(ctx, id); err != nil {
		log.Printf("refresh %s: %v", id, err)
		return err
	}
	return nil
}

// upload wraps the SDK, which retries inside.
func (s *service) upload(ctx context.Context, id string, n int) error {
	return s.sdk.UploadPart(ctx, id, n)
}

// ---- Reported ----

func (s *service) ThroughOneCall(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.fetch(ctx, id); err == nil { // related "calls.go:63: outer retry loop" "calls.go:38: inner self-retrying client call" // want `3 attempts around service\.fetch, which makes 5 each: up to 15 calls on transient failures; keep one layer`
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

func (s *service) ThroughTwoCalls(ctx context.Context, id string) error {
	return retrygo.Do(func() error { return s.refresh(ctx, id) }, retrygo.Attempts(4), retrygo.Context(ctx)) // related "calls.go:73: outer retry callback" "calls.go:38: inner self-retrying client call" // want `4 attempts around service\.refresh, which makes 5 each: up to 20 calls on transient failures; keep one layer`
}

func (s *service) AcrossPackages(ctx context.Context, id string, parts int) error {
	for n := range parts {
		var err error
		for attempt := 0; attempt < 4; attempt++ {
			if err = s.sdk.UploadPart(ctx, id, n); err == nil { // related "calls.go:79: outer retry loop" // want `4 attempts around sdk\.Client\.UploadPart, which makes 5 each: up to 20 calls on transport errors, 5xx; keep one layer`
				break
			}
			time.Sleep(jitter(time.Second))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *service) AcrossPackagesThroughWrapper(ctx context.Context, id string) error {
	b := sethretry.WithMaxRetries(2, sethretry.WithFullJitter(sethretry.NewExponential(time.Second)))
	return sethretry.Do(ctx, b, func(ctx context.Context) error {
		return sethretry.RetryableError(s.upload(ctx, id, 1)) // related "calls.go:94: outer retry callback" // want `3 attempts around service\.upload, which makes 5 each: up to 15 calls on transport errors, 5xx; keep one layer`
	})
}

func (s *service) GotoAround(ctx context.Context, id string) error {
	tries := 0
again:
	if err := s.fetch(ctx, id); err != nil && tries < 2 { // related "calls.go:101: outer goto retry loop" "calls.go:38: inner self-retrying client call" // want `3 attempts around service\.fetch, which makes 5 each: up to 15 calls on transient failures; keep one layer`
		tries++
		time.Sleep(jitter(time.Second))
		goto again
	}
	return nil
}

func (s *service) recurse(ctx context.Context, id string, left int) error {
	err := s.fetch(ctx, id) // related "calls.go:110: outer retrying recursion" "calls.go:38: inner self-retrying client call" // want `retries around service\.fetch, which retries up to 5 times: attempts multiply on transient failures; keep one layer`
	if err != nil && left > 0 {
		time.Sleep(jitter(time.Second))
		return s.recurse(ctx, id, left-1)
	}
	return err
}

// ---- Not reported ----

// A call that does not retry, inside a retry.
func (s *service) StatusInLoop(ctx context.Context, id string) (int, error) {
	var code int
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if code, err = s.sdk.Status(ctx, id); err == nil {
			return code, nil
		}
		time.Sleep(jitter(time.Second))
	}
	return 0, err
}

// A poll waits for a state around a call that retries its failures.
func (s *service) WaitReady(ctx context.Context, id string) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		return s.fetch(ctx, id) == nil, nil
	})
}

// A paginator calling the retrying function once per page.
func (s *service) AllPages(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if err := s.fetch(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// The retrying call is made before the loop, not in it.
func (s *service) BeforeLoop(ctx context.Context, id string) error {
	if err := s.fetch(ctx, id); err != nil {
		return err
	}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = http.Get(s.url); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// The loop retries the stream, and leaves when the retrying call fails: the call's failures
// are retried by its client alone.
func (s *service) FollowAfterLookup(ctx context.Context, id string) error {
	for attempt := 0; attempt < 5; attempt++ {
		if err := s.fetch(ctx, id); err != nil {
			log.Printf("lookup %s: %v", id, err)
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url+"/events/"+id, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Printf("stream %s: %v", id, err)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(jitter(time.Second)):
			}
			continue
		}
		resp.Body.Close()
		return nil
	}
	return nil
}
