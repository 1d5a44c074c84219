package bench

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
)

// The idempotency middleware on the memory store against the bare handler it wraps: a small
// JSON POST (51 bytes) answered 201 with 105 bytes, through a minimal ResponseWriter so that the
// numbers are the middleware's (runtime/idempotency has the same benchmark).

type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }

const paymentBody = `{"amount":1000,"currency":"EUR","customer":"cus_1"}`

var paymentResponse = []byte(`{"id":"pay_5ba2974479c7c18b2123b313","amount":1000,"currency":"EUR","customer":"cus_1","status":"succeeded"}`)

var paymentHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Location", "/v1/payments/pay_5ba2974479c7c18b2123b313")
	w.WriteHeader(http.StatusCreated)
	w.Write(paymentResponse)
})

func serve(b *testing.B, h http.Handler, key func(i int) string) {
	body := []byte(paymentBody)
	r, _ := http.NewRequest(http.MethodPost, "http://example.test/v1/payments", nil)
	r.Header.Set("X-Tenant-Id", "tenant-a")
	w := &discardWriter{h: make(http.Header)}
	rd := bytes.NewReader(body)
	r.Body = io.NopCloser(rd)
	b.ReportAllocs()
	cpu := startCPU()
	defer cpu.report(b)
	i := 0
	for b.Loop() {
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
		i++
	}
}

func keyed() http.Handler {
	return idempotency.Middleware(idempotency.Config{
		Runner: idempotency.Runner{Store: memstore.New()},
		Tenant: func(r *http.Request) (string, error) { return r.Header.Get("X-Tenant-Id"), nil },
	})(paymentHandler)
}

// BenchmarkMiddleware: the bare handler, a new key per request (claim, run, store), and a replay
// (the stored response; the handler does not run).
func BenchmarkMiddleware(b *testing.B) {
	b.Run("bare-handler", func(b *testing.B) { serve(b, paymentHandler, func(int) string { return "" }) })
	b.Run("new-key", func(b *testing.B) { serve(b, keyed(), strconv.Itoa) })
	b.Run("replay", func(b *testing.B) { serve(b, keyed(), func(int) string { return "the-key" }) })
}
