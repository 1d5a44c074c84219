package libs

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/hashicorp/go-retryablehttp"
)

// A goroutine that its starter waits for (a WaitGroup, a channel it receives from) retries
// within the starter's call: the starter retries.
func inWaitedGoroutine(ctx context.Context, reqs []*retryablehttp.Request) error { // want inWaitedGoroutine:`retries: self-retrying client call`
	c := retryablehttp.NewClient()
	c.RetryMax = 7
	var wg sync.WaitGroup
	errs := make([]error, len(reqs))
	for i, req := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Do(req) // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=8`
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func inAwaitedGoroutine(ctx context.Context, req *retryablehttp.Request) (*http.Response, error) { // want inAwaitedGoroutine:`retries: self-retrying client call`
	c := retryablehttp.NewClient()
	c.RetryMax = 7
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := c.Do(req) // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=8`
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
