package retrytransport

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Policy says how often and how long PolicyTransport waits.
type Policy struct {
	MaxAttempts  int
	InitialDelay time.Duration
	MaxDelay     time.Duration
}

// PolicyTransport goes round while a predicate over the answer's status says the server may
// be back: every method, a POST to a completion or payment API included.
type PolicyTransport struct {
	Base   http.RoundTripper
	Policy Policy
}

func (t *PolicyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	attempts := max(t.Policy.MaxAttempts, 1)
	for attempt := 1; attempt <= attempts; attempt++ { // want `PolicyTransport\.RoundTrip resends requests of every method without a key, so a retried POST can take effect twice`
		r, err := forAttempt(req, attempt)
		if err != nil {
			return nil, err
		}
		resp, err := base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		if !retryableStatus(resp.StatusCode) || attempt == attempts {
			return resp, nil
		}
		delay := t.delay(attempt, resp)
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if err := pause(req.Context(), delay); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("retrytransport: attempts exhausted")
}

// GetOnlyTransport goes round the same way, for GET and HEAD only: other methods pass once.
type GetOnlyTransport struct {
	Base http.RoundTripper
}

func (t *GetOnlyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		return t.Base.RoundTrip(req)
	}
	for attempt := 1; ; attempt++ {
		resp, err := t.Base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		if !retryableStatus(resp.StatusCode) || attempt == 3 {
			return resp, nil
		}
		resp.Body.Close()
		if err := pause(req.Context(), time.Duration(attempt)*time.Second+time.Duration(rand.Int64N(int64(time.Second)))); err != nil {
			return nil, err
		}
	}
}

func forAttempt(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 1 {
		return req, nil
	}
	if req.Body != nil && req.GetBody == nil {
		return nil, errors.New("retrytransport: body cannot be replayed")
	}
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = body
	}
	return r, nil
}

func retryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func (t *PolicyTransport) delay(attempt int, resp *http.Response) time.Duration {
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	d := t.Policy.InitialDelay << (attempt - 1)
	if d > t.Policy.MaxDelay {
		d = t.Policy.MaxDelay
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
