package idempotency_test

// The retry client (runtime/retry/retryhttp) against the idempotency middleware, end to end over
// real sockets: the two packages speak one protocol (issue 18.5).

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retryhttp"
)

// statusLog records the status of every response the server sent, and the key of every request.
type statusLog struct {
	mu       sync.Mutex
	statuses []int
	keys     []string
}

func (l *statusLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		l.mu.Lock()
		l.statuses = append(l.statuses, sw.status)
		l.keys = append(l.keys, r.Header.Get("Idempotency-Key"))
		l.mu.Unlock()
	})
}

func (l *statusLog) snapshot() ([]int, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.statuses...), append([]string(nil), l.keys...)
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// A client whose attempt timeout is shorter than the server's work: the first attempt gives up,
// the work goes on and is stored; the next attempts, with the same key, are told 409 "in
// progress" with a short Retry-After, wait, and receive the stored result. The handler runs once.
func TestRetryClientAgainstTheMiddleware(t *testing.T) {
	for name, honoursCtx := range map[string]bool{"handler ignores its context": false, "handler honours its context": true} {
		t.Run(name, func(t *testing.T) {
			const work = 800 * time.Millisecond
			var runs, finished atomic.Int32
			handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				runs.Add(1)
				if honoursCtx {
					select {
					case <-time.After(work):
					case <-r.Context().Done():
						http.Error(w, "cancelled", http.StatusServiceUnavailable)
						return
					}
				} else {
					time.Sleep(work)
				}
				_, err := idempotency.Step(r.Context(), "charge", func(context.Context) (string, error) { return "ch_1", nil })
				if err != nil {
					http.Error(w, err.Error(), http.StatusServiceUnavailable)
					return
				}
				finished.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusCreated)
				io.WriteString(w, `{"id":"pay_1"}`)
			})
			var log statusLog
			keyed := idempotency.Middleware(idempotency.Config{
				Runner: idempotency.Runner{Store: memstore.New()}, // a LocalStore: the claim is held while the work runs
				Tenant: func(*http.Request) (string, error) { return "acme", nil },
			})
			srv := httptest.NewServer(log.wrap(keyed(handler)))
			defer srv.Close()

			client := &http.Client{Transport: &retryhttp.Transport{
				Policy: retry.Policy{
					MaxAttempts:    10,
					BaseDelay:      50 * time.Millisecond,
					AttemptTimeout: 300 * time.Millisecond,
					Timeout:        6 * time.Second,
				},
				IdempotencyKeys: true,
			}}
			start := time.Now()
			resp, err := client.Post(srv.URL+"/v1/payments", "application/json", strings.NewReader(`{"amount":1000}`))
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			elapsed := time.Since(start)

			require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", body)
			assert.Equal(t, `{"id":"pay_1"}`, string(body))
			assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"), "the result of the first attempt's work")
			assert.EqualValues(t, 1, runs.Load(), "the handler runs once")
			assert.EqualValues(t, 1, finished.Load())
			assert.Less(t, elapsed, 4*time.Second, "the 409's Retry-After is short: the client need not wait out the lease")

			require.Eventually(t, func() bool { s, _ := log.snapshot(); return len(s) >= 3 }, time.Second, 10*time.Millisecond)
			statuses, keys := log.snapshot()
			assert.Contains(t, statuses, http.StatusConflict, "a retry while the work ran was told it is in progress")
			for _, k := range keys {
				assert.Equal(t, keys[0], k, "every attempt carries the same key")
			}
			assert.NotEmpty(t, keys[0])
		})
	}
}

// The client takes X-Idempotency-Key for a key (as net/http does) and adds none of its own; the
// middleware must read it too, whether keys are optional or required (issue 27.2).
func TestClientAndServerAgreeOnTheKeyHeaders(t *testing.T) {
	for _, optional := range []bool{true, false} {
		t.Run(map[bool]string{true: "optional", false: "required"}[optional], func(t *testing.T) {
			var runs atomic.Int32
			handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if runs.Add(1) == 1 {
					time.Sleep(400 * time.Millisecond) // the first attempt times out; the work goes on
				}
				w.WriteHeader(http.StatusCreated)
				io.WriteString(w, "created")
			})
			srv := httptest.NewServer(idempotency.Middleware(idempotency.Config{
				Runner:   idempotency.Runner{Store: memstore.New()},
				Tenant:   func(*http.Request) (string, error) { return "acme", nil },
				Optional: optional,
			})(handler))
			defer srv.Close()
			client := &http.Client{Transport: &retryhttp.Transport{
				Policy:          retry.Policy{MaxAttempts: 20, BaseDelay: 20 * time.Millisecond, AttemptTimeout: 150 * time.Millisecond, Timeout: 5 * time.Second},
				IdempotencyKeys: true,
			}}
			req, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/orders", strings.NewReader(`{}`))
			require.NoError(t, err)
			req.Header.Set("X-Idempotency-Key", "order-1")
			resp, err := client.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", body)
			assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"))
			time.Sleep(500 * time.Millisecond)
			assert.EqualValues(t, 1, runs.Load(), "the handler runs once")
		})
	}
}

// Both spellings at once must name the same key.
func TestBothKeyHeadersMustAgree(t *testing.T) {
	var runs atomic.Int32
	srv := httptest.NewServer(idempotency.Middleware(idempotency.Config{
		Runner: idempotency.Runner{Store: memstore.New()},
		Tenant: func(*http.Request) (string, error) { return "acme", nil },
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { runs.Add(1) })))
	defer srv.Close()
	post := func(key, xkey string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{}`))
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Idempotency-Key", xkey)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusBadRequest, post("a", "b"))
	assert.Equal(t, http.StatusOK, post("a", "a"))
	assert.EqualValues(t, 1, runs.Load())
}
