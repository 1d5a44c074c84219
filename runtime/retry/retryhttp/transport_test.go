package retryhttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retrytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trackedBody records whether it was read to the end and closed.
type trackedBody struct {
	io.Reader
	mu     sync.Mutex
	eof    bool
	closed bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err == io.EOF {
		b.mu.Lock()
		b.eof = true
		b.mu.Unlock()
	}
	return n, err
}

func (b *trackedBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

func (b *trackedBody) state() (eof, closed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.eof, b.closed
}

// script is a fake base transport that answers from a list, and records what it got.
type script struct {
	answers []func() (*http.Response, error)
	keys    []string
	bodies  []string
	ctxs    []context.Context
	resps   []*trackedBody
}

func (s *script) RoundTrip(r *http.Request) (*http.Response, error) {
	s.keys = append(s.keys, r.Header.Get(retry.IdempotencyKeyHeader))
	s.ctxs = append(s.ctxs, r.Context())
	body := ""
	if r.Body != nil {
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		body = string(b)
	}
	s.bodies = append(s.bodies, body)
	answer := s.answers[min(len(s.keys), len(s.answers))-1]
	resp, err := answer()
	if resp != nil {
		tb := &trackedBody{Reader: strings.NewReader("payload of attempt")}
		s.resps = append(s.resps, tb)
		resp.Body = tb
	}
	return resp, err
}

func status(code int, header ...string) func() (*http.Response, error) {
	return func() (*http.Response, error) {
		h := http.Header{}
		for i := 0; i+1 < len(header); i += 2 {
			h.Set(header[i], header[i+1])
		}
		return &http.Response{StatusCode: code, Header: h}, nil
	}
}

func fail(err error) func() (*http.Response, error) {
	return func() (*http.Response, error) { return nil, err }
}

var epoch = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

func fakePolicy() (retry.Policy, *retrytest.Clock) {
	c := retrytest.NewClock(epoch)
	return retry.Policy{Clock: c, Rand: retrytest.Rand(1)}, c
}

func TestRetriesAGetAndDrainsFailedAttempts(t *testing.T) {
	p, clock := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){status(503), status(502), status(200)}}
	tr := &Transport{Base: s, Policy: p}
	req, _ := http.NewRequest("GET", "http://example.test/", nil)
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Len(t, s.keys, 3)
	assert.Equal(t, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, clock.Sleeps())
	for i, b := range s.resps[:2] {
		eof, closed := b.state()
		assert.True(t, eof && closed, "failed attempt %d drained and closed", i+1)
	}
	eof, closed := s.resps[2].state()
	assert.False(t, eof || closed, "the caller's body is untouched")
	got, _ := io.ReadAll(resp.Body)
	assert.Equal(t, "payload of attempt", string(got))
}

func TestReturnsTheLastResponseWhenItGivesUp(t *testing.T) {
	p, _ := fakePolicy()
	p.MaxAttempts = 3
	s := &script{answers: []func() (*http.Response, error){status(503)}}
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "GET", ""))
	require.NoError(t, err)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Len(t, s.keys, 3)
	_, closed := s.resps[2].state()
	assert.False(t, closed)
}

func TestNonRetryableStatusIsReturnedAtOnce(t *testing.T) {
	p, clock := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){status(404)}}
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "GET", ""))
	require.NoError(t, err)
	assert.Equal(t, 404, resp.StatusCode)
	assert.Len(t, s.keys, 1)
	assert.Empty(t, clock.Sleeps())
}

func TestTransportErrorAfterRetries(t *testing.T) {
	p, _ := fakePolicy()
	p.MaxAttempts = 2
	reset := &netErr{syscall.ECONNRESET}
	s := &script{answers: []func() (*http.Response, error){status(503), fail(reset)}}
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "GET", ""))
	assert.Nil(t, resp)
	assert.ErrorIs(t, err, retry.ErrAttemptsExhausted)
	assert.ErrorIs(t, err, syscall.ECONNRESET)
	eof, closed := s.resps[0].state()
	assert.True(t, eof && closed)
}

type netErr struct{ errno syscall.Errno }

func (e *netErr) Error() string { return e.errno.Error() }
func (e *netErr) Unwrap() error { return e.errno }

func TestUnkeyedPostIsSentOnce(t *testing.T) {
	p, _ := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){status(503), status(200)}}
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "POST", `{"amount":1}`))
	require.NoError(t, err)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Len(t, s.keys, 1)
	assert.Equal(t, []string{""}, s.keys)
}

func TestUnkeyedPostIsRetriedWhenNeverSent(t *testing.T) {
	p, _ := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){fail(dialRefused()), status(201)}}
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "POST", `{"amount":1}`))
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, []string{`{"amount":1}`, `{"amount":1}`}, s.bodies, "the body is rewound")
}

func TestCallersKeyIsKeptAndReused(t *testing.T) {
	p, _ := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){status(503), status(429), status(200)}}
	req := mustRequest(t, "PATCH", `{"state":"paid"}`)
	req.Header.Set(retry.IdempotencyKeyHeader, "order-42")
	tr := &Transport{Base: s, Policy: p, IdempotencyKeys: true, NewKey: func() string { panic("not needed") }}
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, []string{"order-42", "order-42", "order-42"}, s.keys)
	assert.Equal(t, []string{`{"state":"paid"}`, `{"state":"paid"}`, `{"state":"paid"}`}, s.bodies)
}

func TestOneGeneratedKeyPerRequest(t *testing.T) {
	p, _ := fakePolicy()
	n := 0
	newKey := func() string { n++; return "key-" + string(rune('0'+n)) }
	s := &script{answers: []func() (*http.Response, error){status(503), status(503), status(200)}}
	tr := &Transport{Base: s, Policy: p, IdempotencyKeys: true, NewKey: newKey}
	req := mustRequest(t, "POST", "{}")
	req.Header.Set("Content-Type", "application/json")
	before := req.Header.Clone()
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, []string{"key-1", "key-1", "key-1"}, s.keys, "made once, before the first attempt")
	assert.Equal(t, before, req.Header, "the caller's request is not modified")

	s.answers = []func() (*http.Response, error){status(200)}
	_, err = tr.RoundTrip(mustRequest(t, "POST", "{}"))
	require.NoError(t, err)
	assert.Equal(t, "key-2", s.keys[3], "a new logical request gets a new key")
}

func TestDefaultKeys(t *testing.T) {
	p, _ := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){status(503), status(200)}}
	tr := &Transport{Base: s, Policy: p, IdempotencyKeys: true}
	_, err := tr.RoundTrip(mustRequest(t, "POST", "{}"))
	require.NoError(t, err)
	_, err = tr.RoundTrip(mustRequest(t, "POST", "{}"))
	require.NoError(t, err)
	require.Len(t, s.keys, 3)
	assert.Len(t, s.keys[0], 26)
	assert.Equal(t, s.keys[0], s.keys[1])
	assert.NotEqual(t, s.keys[0], s.keys[2])
}

func TestNoKeysForOtherMethodsOrWhenNotAsked(t *testing.T) {
	p, _ := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){status(200)}}
	tr := &Transport{Base: s, Policy: p, IdempotencyKeys: true}
	_, _ = tr.RoundTrip(mustRequest(t, "PUT", "{}"))
	_, _ = tr.RoundTrip(mustRequest(t, "GET", ""))
	tr.IdempotencyKeys = false
	_, _ = tr.RoundTrip(mustRequest(t, "POST", "{}"))
	assert.Equal(t, []string{"", "", ""}, s.keys)
}

func TestBodyWithoutGetBodyIsSentOnce(t *testing.T) {
	p, _ := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){status(503), status(200)}}
	req, _ := http.NewRequest("PUT", "http://example.test/", io.MultiReader(strings.NewReader("once")))
	require.Nil(t, req.GetBody)
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, []string{"once"}, s.bodies)
}

func TestGetBodyFailureStops(t *testing.T) {
	p, _ := fakePolicy()
	s := &script{answers: []func() (*http.Response, error){status(503), status(200)}}
	req := mustRequest(t, "PUT", "x")
	broken := errors.New("cannot rewind")
	req.GetBody = func() (io.ReadCloser, error) { return nil, broken }
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(req)
	assert.Nil(t, resp)
	assert.ErrorIs(t, err, broken)
	assert.ErrorIs(t, err, retry.ErrPermanent)
	eof, closed := s.resps[0].state()
	assert.True(t, eof && closed)
}

func TestRetryAfterAndOnRetry(t *testing.T) {
	p, clock := fakePolicy()
	p.MaxDelay = 2 * time.Second
	var infos []retry.RetryInfo
	var drainedBeforeHook bool
	s := &script{answers: []func() (*http.Response, error){status(429, "Retry-After", "7"), status(200)}}
	p.OnRetry = func(_ context.Context, r retry.RetryInfo) {
		infos = append(infos, r)
		_, drainedBeforeHook = s.resps[0].state()
	}
	p.Timeout = 30 * time.Second
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "GET", ""))
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, []time.Duration{7 * time.Second}, clock.Sleeps(), "honoured above MaxDelay: the deadline allows it")
	require.Len(t, infos, 1)
	assert.Equal(t, 7*time.Second, infos[0].RetryAfter)
	assert.True(t, drainedBeforeHook, "the failed body is released before the wait")

	// Without a deadline, a wait above MaxDelay is not taken, nor cut short: the 429 is the answer.
	p.Timeout = 0
	s = &script{answers: []func() (*http.Response, error){status(429, "Retry-After", "7"), status(200)}}
	resp, err = (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "GET", ""))
	require.NoError(t, err)
	assert.Equal(t, 429, resp.StatusCode)
	assert.Len(t, s.keys, 1)
}

func TestBreakerOpenClosesTheRequestBody(t *testing.T) {
	p, clock := fakePolicy()
	p.Breaker = retry.NewBreaker(retry.BreakerConfig{MinRequests: 1, Clock: clock})
	permit, _ := p.Breaker.Allow()
	permit.Failure()
	body := &trackedBody{Reader: strings.NewReader("x")}
	req, _ := http.NewRequest("PUT", "http://example.test/", body)
	s := &script{answers: []func() (*http.Response, error){status(200)}}
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(req)
	assert.Nil(t, resp)
	assert.ErrorIs(t, err, retry.ErrBreakerOpen)
	assert.Empty(t, s.keys)
	_, closed := body.state()
	assert.True(t, closed)
}

func TestTimeoutsLastUntilTheBodyIsClosed(t *testing.T) {
	p, _ := fakePolicy()
	p.Timeout, p.AttemptTimeout = time.Hour, time.Minute
	s := &script{answers: []func() (*http.Response, error){status(503), status(200)}}
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "GET", ""))
	require.NoError(t, err)
	require.Len(t, s.ctxs, 2)
	assert.ErrorIs(t, s.ctxs[0].Err(), context.Canceled, "the failed attempt's context ended")
	ctx := s.ctxs[1]
	dl, ok := ctx.Deadline()
	require.True(t, ok)
	assert.InDelta(t, float64(time.Minute), float64(time.Until(dl)), float64(time.Second), "attempt timeout")
	assert.NoError(t, ctx.Err(), "still alive while the caller reads the body")
	require.NoError(t, resp.Body.Close())
	assert.ErrorIs(t, ctx.Err(), context.Canceled)
}

func TestCallerDeadlineIsTheOverallDeadline(t *testing.T) {
	p, clock := fakePolicy()
	p.MaxAttempts = 100
	ctx, cancel := context.WithTimeout(context.Background(), 350*time.Millisecond)
	defer cancel()
	s := &script{answers: []func() (*http.Response, error){status(503)}}
	req := mustRequest(t, "GET", "").WithContext(ctx)
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Len(t, s.keys, 3, "waits of 100 and 200 ms fit in 350 ms, 400 more do not")
	assert.Equal(t, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, clock.Sleeps())
}

func TestInvalidPolicy(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){status(200)}}
	for _, p := range []retry.Policy{{Timeout: -1}, {AttemptTimeout: -1}, {MaxAttempts: -1}} {
		body := &trackedBody{Reader: strings.NewReader("x")}
		req, _ := http.NewRequest("PUT", "http://example.test/", body)
		resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(req)
		assert.Nil(t, resp)
		assert.ErrorIs(t, err, retry.ErrInvalid, "%+v", p)
		_, closed := body.state()
		assert.True(t, closed)
	}
	assert.Empty(t, s.keys, "nothing sent")
}

func mustRequest(t *testing.T, method, body string) *http.Request {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, "http://example.test/", r)
	require.NoError(t, err)
	return req
}

func dialRefused() error {
	return &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
}

// The breaker opening during the wait (other calls failed meanwhile) stops the retries; the last
// response is still returned, body and all, as when the attempts run out.
func TestBreakerOpeningDuringTheWaitReturnsTheLastResponse(t *testing.T) {
	p, clock := fakePolicy()
	p.Breaker = retry.NewBreaker(retry.BreakerConfig{MinRequests: 100, Clock: clock})
	p.OnRetry = func(context.Context, retry.RetryInfo) {
		for range 100 { // the dependency fails for everyone while this request waits
			permit, _ := p.Breaker.Allow()
			permit.Failure()
		}
	}
	s := &script{answers: []func() (*http.Response, error){status(503, "Retry-After", "0")}}
	resp, err := (&Transport{Base: s, Policy: p}).RoundTrip(mustRequest(t, "GET", ""))
	require.NoError(t, err, "the last attempt got a response: it is returned")
	require.Equal(t, 503, resp.StatusCode)
	assert.Len(t, s.keys, 1)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "payload of attempt", string(got))
	require.NoError(t, resp.Body.Close())
	_, closed := s.resps[0].state()
	assert.True(t, closed, "the attempt's own body is closed")
}

// A failed attempt's body longer than what is drained before the wait still comes back whole.
func TestLastResponseKeepsALongBody(t *testing.T) {
	p, clock := fakePolicy()
	long := strings.Repeat("x", 200<<10)
	p.OnRetry = func(context.Context, retry.RetryInfo) {
		permit, _ := p.Breaker.Allow()
		permit.Failure()
	}
	base := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 503, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(long))}, nil
	})
	p.Breaker = retry.NewBreaker(retry.BreakerConfig{MinRequests: 2, Clock: clock})
	resp, err := (&Transport{Base: base, Policy: p}).RoundTrip(mustRequest(t, "GET", ""))
	require.NoError(t, err)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, len(long), len(got))
	resp.Body.Close()
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
