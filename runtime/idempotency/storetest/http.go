package storetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// serve runs h behind the middleware on e's store, over a real socket, and returns a function
// that POSTs with the given key and returns the response with its body read.
func (e *env) serve(t *testing.T, h http.HandlerFunc) func(key string) (*http.Response, string) {
	srv := httptest.NewServer(idempotency.Middleware(idempotency.Config{
		Runner: *e.runner(),
		Tenant: func(*http.Request) (string, error) { return "a", nil },
	})(h))
	t.Cleanup(srv.Close)
	return func(key string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/things", strings.NewReader(`{}`))
		require.NoError(t, err)
		req.Header.Set("Idempotency-Key", key)
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body) // trailers arrive with the end of the body
		require.NoError(t, err)
		resp.Body.Close()
		return resp, string(body)
	}
}

// Trailers that the first response announces arrive with it; those of recorded names
// (RecordHeaders: Content-Digest) arrive with the replay too.
func testMiddlewareTrailers(t *testing.T, e *env) {
	post := e.serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "Content-Digest, X-Checksum")
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "hello")
		w.Header().Set("Content-Digest", "sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:")
		w.Header().Set("X-Checksum", "42")
		w.Header().Set(http.TrailerPrefix+"X-Late", "late")
	})
	first, body := post("trailers")
	require.Equal(t, http.StatusCreated, first.StatusCode)
	assert.Equal(t, "hello", body)
	assert.Equal(t, "sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:", first.Trailer.Get("Content-Digest"))
	assert.Equal(t, "42", first.Trailer.Get("X-Checksum"))
	assert.Equal(t, "late", first.Trailer.Get("X-Late"))

	replay, body := post("trailers")
	require.Equal(t, "true", replay.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, "hello", body)
	assert.Equal(t, "sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:", replay.Trailer.Get("Content-Digest"), "a recorded trailer is replayed")
	assert.Empty(t, replay.Trailer.Get("X-Checksum"), "a trailer that is not recorded is not replayed")
	assert.Empty(t, replay.Header.Get("Content-Digest"), "a trailer stays a trailer")
}

// A handler that suppresses Content-Type (a nil value, net/http's way) gets none on the replay
// either, rather than a sniffed one.
func testMiddlewareSuppressedContentType(t *testing.T, e *env) {
	post := e.serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil
		io.WriteString(w, "hello, not sniffed")
	})
	first, _ := post("no-type")
	_, sniffed := first.Header["Content-Type"]
	require.False(t, sniffed, "the first response has no Content-Type: %q", first.Header.Get("Content-Type"))
	replay, body := post("no-type")
	require.Equal(t, "true", replay.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, "hello, not sniffed", body)
	_, sniffed = replay.Header["Content-Type"]
	assert.False(t, sniffed, "the replay has none either: %q", replay.Header.Get("Content-Type"))
}

// A handler whose response is larger than MaxResponseBytes: the middleware stops buffering it at
// the bound, stores nothing, releases the key and answers 500 (idempotency_response_too_large).
func testMiddlewareResponseTooLarge(t *testing.T, e *env) {
	r := e.runner()
	r.MaxResponseBytes = 1 << 10
	var runs int
	var writeErr error
	srv := httptest.NewServer(idempotency.Middleware(idempotency.Config{
		Runner: *r,
		Tenant: func(*http.Request) (string, error) { return "a", nil },
	})(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		runs++
		for range 4 {
			if _, writeErr = w.Write(make([]byte, 512)); writeErr != nil {
				return
			}
		}
	})))
	t.Cleanup(srv.Close)
	post := func() *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{}`))
		req.Header.Set("Idempotency-Key", "big")
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := post()
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.ErrorIs(t, writeErr, idempotency.ErrResponseTooLarge, "the handler learns it from Write")
	post()
	assert.Equal(t, 2, runs, "nothing was stored: the retry runs again")
}
