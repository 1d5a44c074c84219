package idempotency_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
)

const paymentBody = `{"amount":1000,"currency":"EUR","customer":"cus_1"}`

// harness serves a counting handler behind the middleware.
type harness struct {
	t     *testing.T
	store idempotency.Store
	calls atomic.Int32
	next  http.HandlerFunc // the handler behind the middleware; default: 201 with a payment
	h     http.Handler
}

func newHarness(t *testing.T, cfg idempotency.Config) *harness {
	h := &harness{t: t}
	if cfg.Store == nil {
		cfg.Store = memstore.New()
	}
	if cfg.Tenant == nil {
		cfg.Tenant = func(r *http.Request) (string, error) {
			tenant := r.Header.Get("X-Tenant-ID")
			if tenant == "bad" {
				return "", errors.New("unknown tenant \"bad\"")
			}
			return tenant, nil
		}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h.store = cfg.Store
	h.next = func(w http.ResponseWriter, r *http.Request) {
		n := h.calls.Load()
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Location", fmt.Sprintf("/v1/payments/p_%d", n))
		w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, n))
		w.Header().Set("X-Request-Local", fmt.Sprint(n))
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":"p_%d","request":%s}`, n, body)
	}
	h.h = idempotency.Middleware(cfg)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.calls.Add(1)
		h.next(w, r)
	}))
	return h
}

type req struct {
	method, path, key, tenant, body string
	keys                            []string // several Idempotency-Key headers
	ctx                             context.Context
}

func (h *harness) do(rq req) *httptest.ResponseRecorder {
	if rq.method == "" {
		rq.method = http.MethodPost
	}
	if rq.path == "" {
		rq.path = "/v1/payments"
	}
	if rq.tenant == "" {
		rq.tenant = "tenant-a"
	}
	r := httptest.NewRequest(rq.method, rq.path, strings.NewReader(rq.body))
	if rq.ctx != nil {
		r = r.WithContext(rq.ctx)
	}
	if rq.key != "" {
		r.Header.Set("Idempotency-Key", rq.key)
	}
	for _, k := range rq.keys {
		r.Header.Add("Idempotency-Key", k)
	}
	r.Header.Set("X-Tenant-ID", rq.tenant)
	w := httptest.NewRecorder()
	h.h.ServeHTTP(w, r)
	return w
}

func problemOf(t *testing.T, w *httptest.ResponseRecorder, status int, code string) idempotency.Problem {
	t.Helper()
	require.Equal(t, status, w.Code, "body: %s", w.Body)
	assert.Equal(t, "application/problem+json", w.Header().Get("Content-Type"))
	var p idempotency.Problem
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &p))
	assert.Equal(t, status, p.Status)
	assert.Equal(t, code, p.Code)
	assert.Equal(t, "about:blank", p.Type)
	assert.Equal(t, http.StatusText(status), p.Title)
	assert.NotEmpty(t, p.Detail)
	return p
}

func TestMiddlewareReplaysCompletedRequest(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	first := h.do(req{key: "k1", body: paymentBody})
	require.Equal(t, http.StatusCreated, first.Code)
	assert.Empty(t, first.Header().Get("Idempotent-Replayed"))
	assert.Equal(t, "1", first.Header().Get("X-Request-Local"))

	// Same request, keys in another order and other whitespace: a replay.
	second := h.do(req{key: "k1", body: `{ "customer":"cus_1", "currency":"EUR", "amount":1000 }`})
	require.Equal(t, http.StatusCreated, second.Code)
	assert.Equal(t, "true", second.Header().Get("Idempotent-Replayed"))
	assert.Equal(t, first.Body.Bytes(), second.Body.Bytes(), "the replay must be byte-identical")
	for _, name := range []string{"Content-Type", "Location", "ETag"} {
		assert.Equal(t, first.Header().Values(name), second.Header().Values(name), name)
	}
	assert.Empty(t, second.Header().Get("X-Request-Local"), "only the headers that matter are stored")
	assert.EqualValues(t, 1, h.calls.Load(), "the handler must run once")
}

func TestMiddlewareKeyReuseWithAnotherRequest(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	require.Equal(t, http.StatusCreated, h.do(req{key: "k1", body: paymentBody}).Code)

	w := h.do(req{key: "k1", body: `{"amount":2000,"currency":"EUR","customer":"cus_1"}`})
	p := problemOf(t, w, http.StatusUnprocessableEntity, idempotency.CodeKeyReused)
	assert.Contains(t, p.Detail, "different request")
	problemOf(t, h.do(req{key: "k1", path: "/v1/refunds", body: paymentBody}), http.StatusUnprocessableEntity, idempotency.CodeKeyReused)
	problemOf(t, h.do(req{key: "k1", method: http.MethodPatch, body: paymentBody}), http.StatusUnprocessableEntity, idempotency.CodeKeyReused)
	problemOf(t, h.do(req{key: "k1", path: "/v1/payments?x=1", body: paymentBody}), http.StatusUnprocessableEntity, idempotency.CodeKeyReused)
	assert.EqualValues(t, 1, h.calls.Load())
}

func TestMiddlewareQueryOrderDoesNotMatter(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	require.Equal(t, http.StatusCreated, h.do(req{key: "k1", path: "/v1/payments?b=2&a=1", body: paymentBody}).Code)
	w := h.do(req{key: "k1", path: "/v1/payments?a=1&b=2", body: paymentBody})
	assert.Equal(t, "true", w.Header().Get("Idempotent-Replayed"))
}

func TestMiddlewareRejectsBadKeys(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	p := problemOf(t, h.do(req{body: paymentBody}), http.StatusBadRequest, idempotency.CodeKeyMissing)
	assert.Contains(t, p.Detail, "requires an Idempotency-Key header")

	p = problemOf(t, h.do(req{key: "a b", body: paymentBody}), http.StatusBadRequest, idempotency.CodeKeyInvalid)
	assert.Contains(t, p.Detail, "cannot contain spaces")
	p = problemOf(t, h.do(req{key: strings.Repeat("x", 300), body: paymentBody}), http.StatusBadRequest, idempotency.CodeKeyInvalid)
	assert.Contains(t, p.Detail, "300 characters long; the limit is 255")
	p = problemOf(t, h.do(req{keys: []string{"a", "b"}, body: paymentBody}), http.StatusBadRequest, idempotency.CodeKeyInvalid)
	assert.Contains(t, p.Detail, "exactly one Idempotency-Key header, not 2")

	p = problemOf(t, h.do(req{key: "k", tenant: "bad", body: paymentBody}), http.StatusBadRequest, idempotency.CodeTenantInvalid)
	assert.Contains(t, p.Detail, `unknown tenant "bad"`)
	assert.EqualValues(t, 0, h.calls.Load())

	// The quoted form is the same key as the bare one.
	require.Equal(t, http.StatusCreated, h.do(req{key: `"k-1"`, body: paymentBody}).Code)
	assert.Equal(t, "true", h.do(req{key: "k-1", body: paymentBody}).Header().Get("Idempotent-Replayed"))
}

func TestMiddlewareEmptyTenantIsRejected(t *testing.T) {
	h := newHarness(t, idempotency.Config{Tenant: func(*http.Request) (string, error) { return "", nil }})
	problemOf(t, h.do(req{key: "k", body: paymentBody}), http.StatusBadRequest, idempotency.CodeTenantInvalid)
}

func TestMiddlewareOptionalKeyAndUnkeyedMethods(t *testing.T) {
	h := newHarness(t, idempotency.Config{Optional: true})
	require.Equal(t, http.StatusCreated, h.do(req{body: paymentBody}).Code)
	require.Equal(t, http.StatusCreated, h.do(req{body: paymentBody}).Code)
	assert.EqualValues(t, 2, h.calls.Load(), "unkeyed requests are not deduplicated")

	h = newHarness(t, idempotency.Config{})
	for range 2 {
		w := h.do(req{method: http.MethodGet, key: "k"})
		assert.Equal(t, http.StatusCreated, w.Code)
		assert.Empty(t, w.Header().Get("Idempotent-Replayed"))
	}
	assert.EqualValues(t, 2, h.calls.Load(), "GET passes through, key or not")
}

func TestMiddlewareTenantsAreIsolated(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	a := h.do(req{key: "shared", tenant: "tenant-a", body: paymentBody})
	b := h.do(req{key: "shared", tenant: "tenant-b", body: paymentBody})
	require.Equal(t, http.StatusCreated, a.Code)
	require.Equal(t, http.StatusCreated, b.Code)
	assert.Empty(t, b.Header().Get("Idempotent-Replayed"), "tenant b must not get tenant a's response")
	assert.NotEqual(t, a.Body.String(), b.Body.String())
	assert.EqualValues(t, 2, h.calls.Load())
	assert.Equal(t, a.Body.String(), h.do(req{key: "shared", tenant: "tenant-a", body: paymentBody}).Body.String())
	assert.Equal(t, b.Body.String(), h.do(req{key: "shared", tenant: "tenant-b", body: paymentBody}).Body.String())
}

func TestMiddlewareInProgressIs409(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	entered, release := make(chan struct{}), make(chan struct{})
	inner := h.next
	h.next = func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		inner(w, r)
	}
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- h.do(req{key: "k", body: paymentBody}) }()
	<-entered
	w := h.do(req{key: "k", body: paymentBody})
	problemOf(t, w, http.StatusConflict, idempotency.CodeKeyInProgress)
	assert.Equal(t, "1", w.Header().Get("Retry-After"), "come back soon (not when the 30 s lease ends)")
	assert.True(t, retry.IsRetryable(retry.CheckHTTP(
		&http.Request{Method: "POST", Header: http.Header{"Idempotency-Key": {"k"}}},
		&http.Response{StatusCode: w.Code, Header: w.Header()}, nil)),
		"the retry client retries the in-progress 409, with the same key")
	// A different request with the key in progress is still a 422.
	problemOf(t, h.do(req{key: "k", body: `{}`}), http.StatusUnprocessableEntity, idempotency.CodeKeyReused)
	close(release)
	first := <-done
	require.Equal(t, http.StatusCreated, first.Code)
	w = h.do(req{key: "k", body: paymentBody})
	assert.Equal(t, "true", w.Header().Get("Idempotent-Replayed"))
	assert.Equal(t, first.Body.String(), w.Body.String())
}

func TestMiddlewareConcurrentRequestsRunOnce(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	inner := h.next
	h.next = func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		inner(w, r)
	}
	const n = 50
	results := make([]*httptest.ResponseRecorder, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			results[i] = h.do(req{key: "race", body: paymentBody})
		})
	}
	close(start)
	wg.Wait()
	var created, replayed, conflicts int
	var body string
	for _, w := range results {
		switch {
		case w.Code == http.StatusCreated && w.Header().Get("Idempotent-Replayed") == "":
			created++
			body = w.Body.String()
		case w.Code == http.StatusCreated:
			replayed++
		case w.Code == http.StatusConflict:
			conflicts++
			problemOf(t, w, http.StatusConflict, idempotency.CodeKeyInProgress)
		default:
			t.Errorf("unexpected response %d %s", w.Code, w.Body)
		}
	}
	assert.Equal(t, 1, created)
	assert.Equal(t, n, created+replayed+conflicts)
	assert.EqualValues(t, 1, h.calls.Load())
	for _, w := range results {
		if w.Code == http.StatusCreated {
			assert.Equal(t, body, w.Body.String())
		}
	}
}

func TestMiddlewareTransientOutcomesAreNotStored(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504, 429} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			h := newHarness(t, idempotency.Config{})
			inner := h.next
			h.next = func(w http.ResponseWriter, r *http.Request) {
				if h.calls.Load() == 1 {
					w.Header().Set("Retry-After", "2")
					http.Error(w, "try again", status)
					return
				}
				inner(w, r)
			}
			w := h.do(req{key: "k", body: paymentBody})
			require.Equal(t, status, w.Code)
			assert.Equal(t, "2", w.Header().Get("Retry-After"), "the handler's own response is passed on")
			w = h.do(req{key: "k", body: paymentBody})
			require.Equal(t, http.StatusCreated, w.Code)
			assert.Empty(t, w.Header().Get("Idempotent-Replayed"))
			w = h.do(req{key: "k", body: paymentBody})
			assert.Equal(t, "true", w.Header().Get("Idempotent-Replayed"))
			assert.Equal(t, http.StatusCreated, w.Code, "a %d must never be replayed", status)
			assert.EqualValues(t, 2, h.calls.Load())
		})
	}
}

func TestMiddlewareDeterministic4xxIsStored(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	h.next = func(w http.ResponseWriter, r *http.Request) {
		require.NoError(t, idempotency.MarkStarted(r.Context()))
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"title":"amount must be positive"}`)
	}
	first := h.do(req{key: "k", body: `{"amount":-1}`})
	second := h.do(req{key: "k", body: `{"amount":-1}`})
	require.Equal(t, http.StatusBadRequest, second.Code)
	assert.Equal(t, "true", second.Header().Get("Idempotent-Replayed"))
	assert.Equal(t, first.Body.String(), second.Body.String())
	assert.Equal(t, "application/problem+json", second.Header().Get("Content-Type"))
	assert.EqualValues(t, 1, h.calls.Load())
}

func TestMiddlewarePanicReleasesTheKey(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	inner := h.next
	h.next = func(w http.ResponseWriter, r *http.Request) {
		if h.calls.Load() == 1 {
			w.WriteHeader(http.StatusCreated) // written to the buffer only
			panic("handler bug")
		}
		inner(w, r)
	}
	assert.PanicsWithValue(t, "handler bug", func() { h.do(req{key: "k", body: paymentBody}) })
	w := h.do(req{key: "k", body: paymentBody})
	require.Equal(t, http.StatusCreated, w.Code)
	assert.Empty(t, w.Header().Get("Idempotent-Replayed"))
	assert.EqualValues(t, 2, h.calls.Load())
}

// A client that goes away mid-request does not cancel the work: its outcome is stored, and the
// client's retry receives it instead of running the work again.
func TestMiddlewareClientGoneDoesNotCancelTheWork(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	type ctxKey struct{}
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), ctxKey{}, "v"), time.Hour)
	inner := h.next
	var workCtxErr, derivedErr, cause error
	var value any
	var hasDeadline bool
	h.next = func(w http.ResponseWriter, r *http.Request) {
		if h.calls.Load() == 1 {
			derived, cancelDerived := context.WithCancel(r.Context())
			defer cancelDerived()
			cancel() // the client hangs up while the handler works
			workCtxErr, derivedErr, cause = r.Context().Err(), derived.Err(), context.Cause(r.Context())
			value = r.Context().Value(ctxKey{})
			_, hasDeadline = r.Context().Deadline()
		}
		inner(w, r)
	}
	h.do(req{key: "k", body: paymentBody, ctx: ctx})
	assert.NoError(t, workCtxErr, "the work's context outlives the client's")
	assert.NoError(t, derivedErr, "and so do the contexts derived from it")
	assert.NoError(t, cause)
	assert.False(t, hasDeadline, "the request's deadline is not the work's")
	assert.Equal(t, "v", value, "the work's context carries the request's values")
	w := h.do(req{key: "k", body: paymentBody})
	require.Equal(t, http.StatusCreated, w.Code)
	assert.Equal(t, "true", w.Header().Get("Idempotent-Replayed"), "the work of the abandoned request was stored")
	assert.EqualValues(t, 1, h.calls.Load())
}

func TestMiddlewareBodyLimit(t *testing.T) {
	h := newHarness(t, idempotency.Config{MaxBodyBytes: 64})
	big := `{"pad":"` + strings.Repeat("x", 100) + `"}`
	p := problemOf(t, h.do(req{key: "k", body: big}), http.StatusRequestEntityTooLarge, idempotency.CodeBodyTooLarge)
	assert.Contains(t, p.Detail, "larger than 64 bytes")

	// Without Content-Length (chunked).
	r := httptest.NewRequest(http.MethodPost, "/v1/payments", io.MultiReader(strings.NewReader(big)))
	r.ContentLength = -1
	r.Header.Set("Idempotency-Key", "k")
	r.Header.Set("X-Tenant-ID", "tenant-a")
	w := httptest.NewRecorder()
	h.h.ServeHTTP(w, r)
	problemOf(t, w, http.StatusRequestEntityTooLarge, idempotency.CodeBodyTooLarge)

	assert.EqualValues(t, 0, h.calls.Load())
	// The key was not consumed.
	require.Equal(t, http.StatusCreated, h.do(req{key: "k", body: `{"small":1}`}).Code)
}

func TestMiddlewareNonJSONBodies(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	h.next = func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "plain text reply") // no Content-Type: sniffed, and stored
	}
	first := h.do(req{key: "k", body: "amount=1000&currency=EUR"})
	require.Equal(t, http.StatusOK, first.Code)
	w := h.do(req{key: "k", body: "amount=1000&currency=EUR"})
	assert.Equal(t, "true", w.Header().Get("Idempotent-Replayed"))
	assert.Equal(t, "text/plain; charset=utf-8", w.Header().Get("Content-Type"))
	assert.Equal(t, "plain text reply", w.Body.String())
	problemOf(t, h.do(req{key: "k", body: "currency=EUR&amount=1000"}), http.StatusUnprocessableEntity, idempotency.CodeKeyReused)
}

func TestMiddlewareEmptyResponse(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	h.next = func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}
	require.Equal(t, http.StatusNoContent, h.do(req{key: "k"}).Code)
	w := h.do(req{key: "k"})
	assert.Equal(t, http.StatusNoContent, w.Code)
	assert.Equal(t, "true", w.Header().Get("Idempotent-Replayed"))
	assert.Empty(t, w.Body.String())
	assert.EqualValues(t, 1, h.calls.Load())
}

// faultyStore fails every call while down, and Complete while failComplete.
type faultyStore struct {
	idempotency.Store
	down, failComplete atomic.Bool
}

var errDown = errors.New("connection refused")

func (s *faultyStore) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.Claim, error) {
	if s.down.Load() {
		return idempotency.Claim{}, errDown
	}
	return s.Store.Claim(ctx, req)
}

func (s *faultyStore) Complete(ctx context.Context, l idempotency.Lease, r idempotency.Response) error {
	if s.down.Load() || s.failComplete.Load() {
		return errDown
	}
	return s.Store.Complete(ctx, l, r)
}

func TestMiddlewareStoreOutageIs503(t *testing.T) {
	store := &faultyStore{Store: memstore.New()}
	h := newHarness(t, idempotency.Config{Runner: idempotency.Runner{Store: store}})
	store.down.Store(true)
	w := h.do(req{key: "k", body: paymentBody})
	p := problemOf(t, w, http.StatusServiceUnavailable, idempotency.CodeStoreUnavailable)
	assert.Contains(t, p.Detail, "was not processed")
	assert.Equal(t, "1", w.Header().Get("Retry-After"))
	assert.EqualValues(t, 0, h.calls.Load(), "without the store the request must not run")

	store.down.Store(false)
	require.Equal(t, http.StatusCreated, h.do(req{key: "k", body: paymentBody}).Code, "the key was not consumed")
	assert.EqualValues(t, 1, h.calls.Load())
}

func TestMiddlewareCompletionFailureIs503AndReleases(t *testing.T) {
	store := &faultyStore{Store: memstore.New()}
	h := newHarness(t, idempotency.Config{Runner: idempotency.Runner{Store: store}})
	store.failComplete.Store(true)
	p := problemOf(t, h.do(req{key: "k", body: paymentBody}), http.StatusServiceUnavailable, idempotency.CodeStoreUnavailable)
	assert.Contains(t, p.Detail, "could not be recorded")
	store.failComplete.Store(false)
	w := h.do(req{key: "k", body: paymentBody})
	require.Equal(t, http.StatusCreated, w.Code)
	assert.Empty(t, w.Header().Get("Idempotent-Replayed"))
}

func TestMiddlewareStepsResume(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	var recorded, charged atomic.Int32
	var chargeKeys []string
	h.next = func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		id, err := idempotency.Step(ctx, "record", func(ctx context.Context) (string, error) {
			return fmt.Sprintf("p_%d", recorded.Add(1)), nil
		})
		require.NoError(t, err)
		ch, err := idempotency.Step(ctx, "charge", func(ctx context.Context) (string, error) {
			key, err := idempotency.DerivedKey(ctx, "charge")
			require.NoError(t, err)
			chargeKeys = append(chargeKeys, key)
			if charged.Add(1) == 1 {
				return "", errors.New("provider unavailable")
			}
			return "ch_1", nil
		})
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		fmt.Fprintf(w, `{"id":%q,"charge":%q}`, id, ch)
	}
	require.Equal(t, http.StatusBadGateway, h.do(req{key: "k", body: paymentBody}).Code)
	w := h.do(req{key: "k", body: paymentBody})
	require.Equal(t, http.StatusOK, w.Code)
	assert.JSONEq(t, `{"id":"p_1","charge":"ch_1"}`, w.Body.String())
	assert.EqualValues(t, 1, recorded.Load(), "the retry resumes after the recorded step")
	assert.EqualValues(t, 2, charged.Load())
	require.Len(t, chargeKeys, 2)
	assert.Equal(t, chargeKeys[0], chargeKeys[1], "every attempt derives the same downstream key")
	assert.Regexp(t, `^[0-9a-f]{32}:charge$`, chargeKeys[0])
}

func TestMiddlewareCurrentTxNeedsATxStore(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	h.next = func(w http.ResponseWriter, r *http.Request) {
		_, err := idempotency.CurrentTx(r.Context())
		assert.ErrorIs(t, err, idempotency.ErrNotTransactional)
		w.WriteHeader(http.StatusCreated)
	}
	require.Equal(t, http.StatusCreated, h.do(req{key: "k"}).Code)
	_, err := idempotency.CurrentTx(context.Background())
	assert.ErrorIs(t, err, idempotency.ErrNoOperation)
}

func TestMiddlewareOverHTTP(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	srv := httptest.NewServer(h.h)
	defer srv.Close()
	post := func() (*http.Response, []byte) {
		r, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/payments", strings.NewReader(paymentBody))
		require.NoError(t, err)
		r.Header.Set("Idempotency-Key", "k")
		r.Header.Set("X-Tenant-ID", "t")
		resp, err := srv.Client().Do(r)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, b
	}
	r1, b1 := post()
	r2, b2 := post()
	assert.Equal(t, http.StatusCreated, r1.StatusCode)
	assert.Equal(t, http.StatusCreated, r2.StatusCode)
	assert.Equal(t, b1, b2)
	assert.Equal(t, "true", r2.Header.Get("Idempotent-Replayed"))
	for _, name := range []string{"Content-Type", "Location", "Etag", "Content-Length"} {
		assert.Equal(t, r1.Header.Values(name), r2.Header.Values(name), name)
	}
}

func TestMiddlewareNeedsStoreAndTenant(t *testing.T) {
	assert.PanicsWithError(t, "idempotency: invalid configuration: Runner.Store is nil", func() {
		idempotency.Middleware(idempotency.Config{Tenant: func(*http.Request) (string, error) { return "t", nil }})
	})
	assert.PanicsWithError(t, "idempotency: invalid configuration: Config.Tenant is nil: keys must be scoped per tenant", func() {
		idempotency.Middleware(idempotency.Config{Runner: idempotency.Runner{Store: memstore.New()}})
	})
}

// Issue 18.4: a replay carries every representation header, so that it means what the first
// response meant (a compressing handler's body is gzip bytes, labelled as such).
func TestMiddlewareReplaysRepresentationHeaders(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(`{"id":"p_1"}`))
	zw.Close()
	h.next = func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Type", "application/json")
		hd.Set("Content-Encoding", "gzip")
		hd.Set("Content-Language", "de")
		hd.Set("Content-Disposition", `attachment; filename="receipt.json"`)
		hd.Add("Vary", "Accept-Encoding")
		hd.Add("Vary", "Accept-Language")
		hd.Set("Content-Location", "/v1/payments/p_1")
		hd.Set("Last-Modified", "Tue, 15 Nov 1994 12:45:26 GMT")
		hd.Set("X-Request-Local", "not a representation header")
		w.WriteHeader(http.StatusCreated)
		w.Write(zipped.Bytes())
	}
	first := h.do(req{key: "k", body: paymentBody})
	second := h.do(req{key: "k", body: paymentBody})
	require.Equal(t, "true", second.Header().Get("Idempotent-Replayed"))
	assert.Equal(t, first.Body.Bytes(), second.Body.Bytes())
	for _, name := range []string{"Content-Type", "Content-Encoding", "Content-Language", "Content-Disposition",
		"Vary", "Content-Location", "Last-Modified"} {
		assert.Equal(t, first.Header().Values(name), second.Header().Values(name), name)
	}
	zr, err := gzip.NewReader(second.Body)
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, `{"id":"p_1"}`, string(plain))
	assert.Empty(t, second.Header().Get("X-Request-Local"))
}

// Issue 18.9: a tenant that is not text is a bad request (400), like a bad key, on every store.
func TestMiddlewareRejectsMalformedTenants(t *testing.T) {
	var tenant string
	h := newHarness(t, idempotency.Config{Tenant: func(*http.Request) (string, error) { return tenant, nil }})
	for _, bad := range []string{"acme\x00", "\xff\xfe", "ac\nme", strings.Repeat("t", 256)} {
		tenant = bad
		problemOf(t, h.do(req{key: "k", body: paymentBody}), http.StatusBadRequest, idempotency.CodeTenantInvalid)
	}
	assert.EqualValues(t, 0, h.calls.Load())
	for _, good := range []string{"acme", "Zürich GmbH", "org:42/user:7"} {
		tenant = good
		require.Equal(t, http.StatusCreated, h.do(req{key: "k", body: paymentBody}).Code, "%q", good)
	}
}

// Issue 18.10: methods are matched without regard to case, as the fingerprint already does: a
// keyed "post" is a POST, run once.
func TestMiddlewareMethodsIgnoreCase(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	var codes []int
	for _, m := range []string{"post", "Post", "POST"} {
		w := h.do(req{method: m, key: "k", body: paymentBody})
		codes = append(codes, w.Code)
	}
	assert.Equal(t, []int{201, 201, 201}, codes)
	assert.EqualValues(t, 1, h.calls.Load(), "one key, one run, whatever the method's case")
	problemOf(t, h.do(req{method: "post", body: paymentBody}), http.StatusBadRequest, idempotency.CodeKeyMissing)
}

// Issue 18.11: a request rejected before it started executing (a validation 400) is not stored:
// the client fixes its body and retries with the same key. A 4xx after execution started (a
// step ran) is a final outcome and is replayed.
func TestMiddlewareRejectionBeforeExecutionIsNotStored(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	var charged atomic.Int32
	h.next = func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Amount int }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Amount <= 0 {
			http.Error(w, "amount must be positive", http.StatusBadRequest)
			return
		}
		_, err := idempotency.Step(r.Context(), "charge", func(context.Context) (int, error) { return int(charged.Add(1)), nil })
		require.NoError(t, err)
		if in.Amount > 5000 {
			http.Error(w, "card declined", http.StatusPaymentRequired)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}
	w := h.do(req{key: "k", body: `{"amount":-5}`})
	require.Equal(t, http.StatusBadRequest, w.Code)
	w = h.do(req{key: "k", body: `{"amount":-5}`})
	require.Equal(t, http.StatusBadRequest, w.Code)
	assert.Empty(t, w.Header().Get("Idempotent-Replayed"), "a rejection before execution is not replayed")
	w = h.do(req{key: "k", body: `{"amount":10}`})
	require.Equal(t, http.StatusCreated, w.Code, "the client fixed its body and kept its key: %s", w.Body)
	assert.EqualValues(t, 1, charged.Load())

	// After execution started, a 4xx is the outcome: replayed, never run again.
	require.Equal(t, http.StatusPaymentRequired, h.do(req{key: "k2", body: `{"amount":9000}`}).Code)
	w = h.do(req{key: "k2", body: `{"amount":9000}`})
	require.Equal(t, http.StatusPaymentRequired, w.Code)
	assert.Equal(t, "true", w.Header().Get("Idempotent-Replayed"))
	problemOf(t, h.do(req{key: "k2", body: `{"amount":10}`}), http.StatusUnprocessableEntity, idempotency.CodeKeyReused)
	assert.EqualValues(t, 2, charged.Load())

	// MarkStarted says so explicitly for work that is not in a step.
	h.next = func(w http.ResponseWriter, r *http.Request) {
		require.NoError(t, idempotency.MarkStarted(r.Context()))
		http.Error(w, "already refunded", http.StatusGone)
	}
	require.Equal(t, http.StatusGone, h.do(req{key: "k3", body: `{}`}).Code)
	assert.Equal(t, "true", h.do(req{key: "k3", body: `{}`}).Header().Get("Idempotent-Replayed"))
	assert.ErrorIs(t, idempotency.MarkStarted(context.Background()), idempotency.ErrNoOperation)
}

// Issue 18.1: a retention that is not well above the lease is a configuration error, reported
// when the middleware is built (and by Runner.Do, without claiming anything).
func TestRetentionMustBeWellAboveTheLease(t *testing.T) {
	tenant := func(*http.Request) (string, error) { return "t", nil }
	bad := idempotency.Config{Runner: idempotency.Runner{Store: memstore.New(), Retention: 300 * time.Millisecond}, Tenant: tenant}
	err := bad.Validate()
	require.ErrorIs(t, err, idempotency.ErrInvalidConfig)
	assert.ErrorContains(t, err, "Retention")
	assert.PanicsWithError(t, err.Error(), func() { idempotency.Middleware(bad) })

	r := idempotency.Runner{Store: memstore.New(), Lease: time.Minute, Retention: 2 * time.Minute}
	_, err = r.Do(context.Background(), "a", "k", "fp", func(context.Context) (idempotency.Response, error) {
		t.Error("a misconfigured runner must not run the work")
		return idempotency.Response{}, nil
	})
	require.ErrorIs(t, err, idempotency.ErrInvalidConfig)

	r = idempotency.Runner{Store: memstore.New(), Lease: time.Second, Heartbeat: 2 * time.Second}
	assert.ErrorIs(t, r.Validate(), idempotency.ErrInvalidConfig, "a heartbeat slower than the lease lets the lease lapse")
	assert.NoError(t, (&idempotency.Runner{Store: memstore.New()}).Validate())
	assert.NoError(t, (&idempotency.Runner{Store: memstore.New(), Lease: time.Second, Retention: time.Minute}).Validate())
}

// A body that does not match its Content-Length is unreadable (400); the key is not consumed.
func TestMiddlewareBodyLengthMismatch(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	for _, declared := range []int64{int64(len(paymentBody)) - 5, int64(len(paymentBody)) + 5} {
		r := httptest.NewRequest(http.MethodPost, "/v1/payments", strings.NewReader(paymentBody))
		r.ContentLength = declared
		r.Header.Set("Idempotency-Key", "k")
		r.Header.Set("X-Tenant-ID", "tenant-a")
		w := httptest.NewRecorder()
		h.h.ServeHTTP(w, r)
		problemOf(t, w, http.StatusBadRequest, idempotency.CodeBodyUnreadable)
	}
	assert.EqualValues(t, 0, h.calls.Load())
	require.Equal(t, http.StatusCreated, h.do(req{key: "k", body: paymentBody}).Code)
}

// The buffers that hold request bodies are recycled: every request's handler reads its own body,
// exactly, whatever the sizes that came before, with its length known or not.
func TestMiddlewareRecycledBodyBuffers(t *testing.T) {
	h := newHarness(t, idempotency.Config{})
	h.next = func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		w.Write(body)
	}
	bodies := []string{
		paymentBody,
		`{"a":1}`,
		strings.Repeat("y", 100<<10), // above what a recycled buffer keeps
		`{"b":2}`,
		"",
		strings.Repeat("z", 3000),
		`{"c":3}`,
	}
	for round, known := range []bool{true, false} {
		for i, body := range bodies {
			r := httptest.NewRequest(http.MethodPost, "/v1/payments", io.MultiReader(strings.NewReader(body)))
			r.ContentLength = -1
			if known {
				r.ContentLength = int64(len(body))
			}
			r.Header.Set("Idempotency-Key", fmt.Sprintf("k%d-%d", round, i))
			r.Header.Set("X-Tenant-ID", "tenant-a")
			w := httptest.NewRecorder()
			h.h.ServeHTTP(w, r)
			require.Equal(t, http.StatusOK, w.Code, "body %d", i)
			require.Equal(t, body, w.Body.String(), "body %d, length known: %v", i, known)
		}
	}
	// The replays match their own bodies, not whatever the buffer held before.
	for i, body := range bodies {
		w := h.do(req{key: fmt.Sprintf("k0-%d", i), body: body})
		require.Equal(t, "true", w.Header().Get("Idempotent-Replayed"), "body %d", i)
		require.Equal(t, body, w.Body.String())
	}
	assert.EqualValues(t, 2*len(bodies), h.calls.Load())
}
