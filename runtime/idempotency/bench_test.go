package idempotency_test

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
)

// discardWriter is a minimal http.ResponseWriter, so that the benchmarks measure the middleware
// rather than httptest.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }

var benchResponse = []byte(`{"id":"pay_5ba2974479c7c18b2123b313","amount":1000,"currency":"EUR","customer":"cus_1","status":"succeeded"}`)

// benchHandler is a typical small JSON handler: it reads the body and writes a 201.
var benchHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Location", "/v1/payments/pay_5ba2974479c7c18b2123b313")
	w.WriteHeader(http.StatusCreated)
	w.Write(benchResponse)
})

// benchTenant reads the tenant by the header's canonical name (Get("X-Tenant-ID") would make the
// canonical form, an allocation, on every call: the tenant function's cost, not the middleware's).
func benchTenant(r *http.Request) (string, error) { return r.Header.Get("X-Tenant-Id"), nil }

// runBench serves b.N requests; key returns the Idempotency-Key of request i ("" for none).
func runBench(b *testing.B, h http.Handler, key func(i int) string) {
	body := []byte(paymentBody)
	r, err := http.NewRequest(http.MethodPost, "http://example.test/v1/payments", nil)
	if err != nil {
		b.Fatal(err)
	}
	r.Header.Set("X-Tenant-Id", "tenant-a")
	r.Header.Set("Content-Type", "application/json")
	w := &discardWriter{h: make(http.Header)}
	rd := bytes.NewReader(body)
	r.Body = io.NopCloser(rd)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if k := key(i); k != "" {
			r.Header["Idempotency-Key"] = []string{k}
		}
		rd.Reset(body)
		r.ContentLength = int64(len(body))
		clear(w.h)
		h.ServeHTTP(w, r)
		if w.status != http.StatusCreated {
			b.Fatalf("status %d", w.status)
		}
	}
}

// BenchmarkMiddleware measures the middleware's overhead over a bare handler with the memory
// store: a new key per request (claim, run, store) and a replay (claim finds the response).
func BenchmarkMiddleware(b *testing.B) {
	b.Run("bare", func(b *testing.B) {
		runBench(b, benchHandler, func(int) string { return "" })
	})
	b.Run("new-key", func(b *testing.B) {
		h := idempotency.Middleware(idempotency.Config{Runner: idempotency.Runner{Store: memstore.New()}, Tenant: benchTenant})(benchHandler)
		runBench(b, h, strconv.Itoa)
	})
	b.Run("new-key-full", func(b *testing.B) { // a store at its bound: each new key evicts the oldest
		const bound = 1 << 16
		store := memstore.New(memstore.WithMaxRecords(bound))
		h := idempotency.Middleware(idempotency.Config{Runner: idempotency.Runner{Store: store}, Tenant: benchTenant})(benchHandler)
		runBench(b, h, func(i int) string {
			if i == 0 && b.N > 1 {
				b.StopTimer()
				for j := range 2 * bound {
					serveOne(h, "fill-"+strconv.Itoa(j))
				}
				b.StartTimer()
			}
			return strconv.Itoa(i)
		})
	})
	b.Run("replay", func(b *testing.B) {
		h := idempotency.Middleware(idempotency.Config{Runner: idempotency.Runner{Store: memstore.New()}, Tenant: benchTenant})(benchHandler)
		runBench(b, h, func(int) string { return "the-key" })
	})
}

// serveOne serves one request with key.
func serveOne(h http.Handler, key string) {
	r, _ := http.NewRequest(http.MethodPost, "http://example.test/v1/payments", strings.NewReader(paymentBody))
	r.Header.Set("X-Tenant-Id", "tenant-a")
	r.Header.Set("Idempotency-Key", key)
	h.ServeHTTP(&discardWriter{h: make(http.Header)}, r)
}

func BenchmarkFingerprint(b *testing.B) {
	body := []byte(paymentBody)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		idempotency.Fingerprint("POST", "/v1/payments", body)
	}
}
