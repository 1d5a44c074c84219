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

// exchange is one request and its writer, served again and again.
type exchange struct {
	body []byte
	rd   *bytes.Reader
	r    *http.Request
	w    *discardWriter
}

func newExchange() *exchange {
	x := &exchange{body: []byte(paymentBody), w: &discardWriter{h: make(http.Header)}}
	x.r, _ = http.NewRequest(http.MethodPost, "http://example.test/v1/payments", nil)
	x.r.Header.Set("X-Tenant-Id", "tenant-a")
	x.rd = bytes.NewReader(x.body)
	x.r.Body = io.NopCloser(x.rd)
	return x
}

// do serves the request with key ("" for none) and returns the status.
func (x *exchange) do(h http.Handler, key string) int {
	if key != "" {
		x.r.Header["Idempotency-Key"] = []string{key}
	}
	x.rd.Reset(x.body)
	x.r.ContentLength = int64(len(x.body))
	clear(x.w.h)
	h.ServeHTTP(x.w, x.r)
	return x.w.status
}

func serve(b *testing.B, h http.Handler, key func(i int) string) {
	x := newExchange()
	b.ReportAllocs()
	cpu := startCPU()
	defer cpu.report(b)
	i := 0
	for b.Loop() {
		if status := x.do(h, key(i)); status != http.StatusCreated {
			b.Fatalf("status %d", status)
		}
		i++
	}
}

func keyed(store idempotency.Store) http.Handler {
	return idempotency.Middleware(idempotency.Config{
		Runner: idempotency.Runner{Store: store},
		Tenant: func(r *http.Request) (string, error) { return r.Header.Get("X-Tenant-Id"), nil },
	})(paymentHandler)
}

// fullStore is the bound of the store of new-key-full.
const fullStore = 1 << 16

// BenchmarkMiddleware: the bare handler, a new key per request (claim, run, store), and a replay
// (the stored response; the handler does not run). new-key grows the store by a record per
// request for the whole run; new-key-full serves new keys to a store at its bound (filled first),
// where each evicts the oldest completed record: the steady state of a service whose store holds
// a retention window's worth of keys.
func BenchmarkMiddleware(b *testing.B) {
	b.Run("bare-handler", func(b *testing.B) { serve(b, paymentHandler, func(int) string { return "" }) })
	b.Run("new-key", func(b *testing.B) { serve(b, keyed(memstore.New()), strconv.Itoa) })
	b.Run("new-key-full", func(b *testing.B) {
		store := memstore.New(memstore.WithMaxRecords(fullStore))
		h := keyed(store)
		x := newExchange()
		for i := range 2 * fullStore { // every shard full
			x.do(h, "fill-"+strconv.Itoa(i))
		}
		evicted := store.Evicted()
		serve(b, h, strconv.Itoa)
		if b.N > fullStore && store.Evicted()-evicted < int64(b.N)/2 {
			b.Fatalf("%d evictions in %d requests: the store is not at its bound", store.Evicted()-evicted, b.N)
		}
	})
	b.Run("replay", func(b *testing.B) { serve(b, keyed(memstore.New()), func(int) string { return "the-key" }) })
}
