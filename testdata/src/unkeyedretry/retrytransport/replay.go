package retrytransport

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"time"
)

// isIdempotent says which methods a repeat cannot duplicate.
func isIdempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// ReplayTransport looks at the method, yet treats any request whose body it can replay as
// safe to send again: a POST with a body goes round after a lost answer.
type ReplayTransport struct {
	Base     http.RoundTripper
	Attempts int
}

func (t *ReplayTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	replayable := isIdempotent(req.Method) || req.GetBody != nil
	var resp *http.Response
	var err error
	for attempt := 0; attempt < t.Attempts; attempt++ { // want `ReplayTransport\.RoundTrip resends POSTs without an idempotency key, so a retried POST can take effect twice`
		if attempt > 0 && req.GetBody != nil {
			if req.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
		resp, err = t.Base.RoundTrip(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if !replayable {
			return resp, err
		}
		if resp != nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if err := sleep(req.Context(), time.Duration(rand.Int64N(int64(200*time.Millisecond)<<attempt))); err != nil {
			return nil, err
		}
	}
	return resp, err
}

// MethodTransport goes round only for the methods a repeat cannot duplicate: not reported.
type MethodTransport struct {
	Base     http.RoundTripper
	Attempts int
}

func (t *MethodTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < t.Attempts; attempt++ {
		resp, err = t.Base.RoundTrip(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if !isIdempotent(req.Method) || req.Body != nil && req.GetBody == nil {
			return resp, err
		}
		if resp != nil {
			resp.Body.Close()
		}
		if err := sleep(req.Context(), time.Duration(rand.Int64N(int64(200*time.Millisecond)<<attempt))); err != nil {
			return nil, err
		}
	}
	return resp, err
}

// PostOnceTransport sends a POST once and goes round for the other methods: not reported.
type PostOnceTransport struct {
	Base http.RoundTripper
}

func (t PostOnceTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := t.Base.RoundTrip(req)
		if err == nil || req.Method == http.MethodPost || attempt == 2 {
			return resp, err
		}
		if err := sleep(req.Context(), time.Duration(rand.Int64N(int64(time.Second)))); err != nil {
			return nil, err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// FlagTransport sets a flag for the methods a repeat cannot duplicate and goes round only when
// it is set: not reported.
type FlagTransport struct {
	Base     http.RoundTripper
	Attempts int
}

func (t *FlagTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	retryable := false
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		retryable = true
	}
	var resp *http.Response
	var err error
	for attempt := 0; attempt < t.Attempts; attempt++ {
		resp, err = t.Base.RoundTrip(req)
		if err == nil && resp.StatusCode < 500 || !retryable {
			return resp, err
		}
		if err := sleep(req.Context(), time.Duration(rand.Int64N(int64(100*time.Millisecond)<<attempt))); err != nil {
			return nil, err
		}
	}
	return resp, err
}

// BothTransport goes round for an idempotent method whose body it can replay: not reported.
type BothTransport struct {
	Base     http.RoundTripper
	Attempts int
}

func (t *BothTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	again := isIdempotent(req.Method) && (req.Body == nil || req.GetBody != nil)
	var resp *http.Response
	var err error
	for attempt := 0; attempt < t.Attempts; attempt++ {
		resp, err = t.Base.RoundTrip(req)
		if err == nil && resp.StatusCode < 500 || !again {
			return resp, err
		}
		if err := sleep(req.Context(), time.Duration(rand.Int64N(int64(100*time.Millisecond)<<attempt))); err != nil {
			return nil, err
		}
	}
	return resp, err
}

// ClosureTransport tests the method, then retries in a function literal: the walk does not
// follow the test into the literal, so it stays silent.
type ClosureTransport struct {
	Base http.RoundTripper
}

func (t *ClosureTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isIdempotent(req.Method) {
		return t.Base.RoundTrip(req)
	}
	do := func() (*http.Response, error) {
		var resp *http.Response
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			resp, err = t.Base.RoundTrip(req)
			if err == nil && resp.StatusCode < 500 {
				return resp, nil
			}
			if err := sleep(req.Context(), time.Duration(rand.Int64N(int64(time.Second)))); err != nil {
				return nil, err
			}
		}
		return resp, err
	}
	return do()
}
