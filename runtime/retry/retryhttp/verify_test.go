package retryhttp

// The fault-injection verification: a real httptest server that answers 503, real (tiny)
// waits, real sockets.

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unavailable is a server that answers 503 and records when each request came, with its
// idempotency key and body.
type unavailable struct {
	*httptest.Server
	mu         sync.Mutex
	at         []time.Time
	keys       []string
	bodies     []string
	retryAfter string
}

func newUnavailable(t *testing.T) *unavailable {
	u := &unavailable{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.at = append(u.at, time.Now())
		u.keys = append(u.keys, r.Header.Get(retry.IdempotencyKeyHeader))
		u.bodies = append(u.bodies, string(body))
		ra := u.retryAfter
		u.mu.Unlock()
		if ra != "" {
			w.Header().Set("Retry-After", ra)
		}
		http.Error(w, "try later", http.StatusServiceUnavailable)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *unavailable) hits() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.at)
}

func TestVerifyAttemptsStopAtTheCapWithJitteredWaits(t *testing.T) {
	srv := newUnavailable(t)
	const base, maxDelay = 2 * time.Millisecond, 8 * time.Millisecond
	var delays []time.Duration
	p := retry.Policy{MaxAttempts: 6, BaseDelay: base, MaxDelay: maxDelay,
		OnRetry: func(_ context.Context, r retry.RetryInfo) { delays = append(delays, r.Delay) }}
	client := &http.Client{Transport: &Transport{Policy: p}, Timeout: 10 * time.Second}

	resp, err := client.Get(srv.URL)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "try later\n", string(body), "the last answer reaches the caller intact")

	require.Equal(t, 6, srv.hits(), "exactly MaxAttempts requests")
	require.Len(t, delays, 5)
	for i, d := range delays {
		ceiling := retry.Backoff(i+1, base, maxDelay)
		assert.True(t, d >= 0 && d <= ceiling, "wait %d: %v outside [0, %v]", i+1, d, ceiling)
		gap := srv.at[i+1].Sub(srv.at[i])
		assert.GreaterOrEqual(t, gap, d, "wait %d: the server saw the wait", i+1)
	}
}

func TestVerifyStopsAtTheDeadline(t *testing.T) {
	srv := newUnavailable(t)
	// Waits up to 40 ms: a loop that slept past the deadline would overshoot it by that much.
	const deadline, slack = 150 * time.Millisecond, 150 * time.Millisecond
	const tick = 10 * time.Millisecond // clock readings in Do and in the hook differ slightly
	var start time.Time
	var wakeups []time.Duration // when each wait was to end, from start
	p := retry.Policy{MaxAttempts: 1000, BaseDelay: 5 * time.Millisecond, MaxDelay: 40 * time.Millisecond,
		OnRetry: func(_ context.Context, r retry.RetryInfo) { wakeups = append(wakeups, time.Since(start)+r.Delay) }}

	// The retry loop itself, with the error that says why it stopped.
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start = time.Now()
	err := retry.Do(ctx, p, func(ctx context.Context, _ retry.Attempt) error {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return retry.CheckHTTP(req, resp, err)
	})
	elapsed := time.Since(start)
	assert.ErrorIs(t, err, retry.ErrDeadline)
	var he *retry.HTTPError
	require.ErrorAs(t, err, &he, "wraps the last failure")
	assert.Less(t, elapsed, deadline+slack, "stops at the deadline")
	hits := srv.hits()
	assert.Greater(t, hits, 3)
	assert.Less(t, hits, 1000)
	require.NotEmpty(t, wakeups)
	for i, w := range wakeups {
		assert.Less(t, w, deadline+tick, "wait %d would end past the deadline", i+1)
	}

	// The transport, with the policy's own deadline: the last attempt either got its 503
	// or was cut by the deadline.
	before := srv.hits()
	wakeups = nil
	p.Timeout = deadline
	start = time.Now()
	resp, err := (&http.Client{Transport: &Transport{Policy: p}}).Get(srv.URL)
	elapsed = time.Since(start)
	if err == nil {
		resp.Body.Close()
		assert.Equal(t, 503, resp.StatusCode)
	} else {
		assert.ErrorIs(t, err, retry.ErrDeadline)
	}
	assert.Less(t, elapsed, deadline+slack)
	assert.Greater(t, srv.hits()-before, 3)
	for i, w := range wakeups {
		assert.Less(t, w, deadline+tick, "wait %d would end past the deadline", i+1)
	}
}

func TestVerifyRetryAfterPastTheDeadlineStopsAtOnce(t *testing.T) {
	srv := newUnavailable(t)
	srv.retryAfter = "2"
	p := retry.Policy{MaxAttempts: 5, MaxDelay: 10 * time.Second, Timeout: time.Second}
	start := time.Now()
	resp, err := (&http.Client{Transport: &Transport{Policy: p}}).Get(srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 1, srv.hits())
	assert.Less(t, time.Since(start), 500*time.Millisecond, "no pointless wait")
}

func TestVerifyPostIsRetriedOnlyWithAKey(t *testing.T) {
	srv := newUnavailable(t)
	p := retry.Policy{MaxAttempts: 4, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
	client := &http.Client{Transport: &Transport{Policy: p}}

	resp, err := client.Post(srv.URL, "application/json", strings.NewReader(`{"amount":100}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, 1, srv.hits(), "a POST without a key is sent once")

	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(`{"amount":100}`))
	req.Header.Set(retry.IdempotencyKeyHeader, "charge-7")
	resp, err = client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 1+4, srv.hits(), "a keyed POST is retried")

	keyed := &http.Client{Transport: &Transport{Policy: p, IdempotencyKeys: true}}
	resp, err = keyed.Post(srv.URL, "application/json", strings.NewReader(`{"amount":100}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 1+4+4, srv.hits(), "a POST given a key by the transport is retried")

	srv.mu.Lock()
	defer srv.mu.Unlock()
	assert.Equal(t, []string{"charge-7", "charge-7", "charge-7", "charge-7"}, srv.keys[1:5])
	generated := srv.keys[5]
	assert.NotEmpty(t, generated)
	assert.Equal(t, []string{generated, generated, generated, generated}, srv.keys[5:9], "one key for every attempt")
	for i, b := range srv.bodies {
		assert.Equal(t, `{"amount":100}`, b, "request %d carried the whole body", i+1)
	}
}

func TestVerifyUnsentPostIsRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused

	var attempts int
	p := retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond,
		OnRetry: func(context.Context, retry.RetryInfo) { attempts++ }}
	client := &http.Client{Transport: &Transport{Policy: p}}
	_, err = client.Post("http://"+addr, "application/json", strings.NewReader("{}"))
	require.Error(t, err)
	assert.Equal(t, 2, attempts, "refused while dialing: the POST never left, so it is retried")
	assert.ErrorIs(t, err, retry.ErrAttemptsExhausted)
	assert.ErrorIs(t, err, syscall.ECONNREFUSED)
	var ue *url.Error
	assert.True(t, errors.As(err, &ue))
}

func TestVerifyAttemptTimeoutRetriesASlowAnswer(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 1 {
			select { // hang until the client gives up
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		_, _ = io.WriteString(w, strings.Repeat("ok", 1000))
	}))
	defer srv.Close()
	p := retry.Policy{AttemptTimeout: 200 * time.Millisecond, BaseDelay: time.Millisecond}
	resp, err := (&http.Client{Transport: &Transport{Policy: p}}).Get(srv.URL)
	require.NoError(t, err)
	time.Sleep(250 * time.Millisecond) // past the attempt timeout: the body must still be readable
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Len(t, body, 2000)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 2, calls)
}
