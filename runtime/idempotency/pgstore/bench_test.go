package pgstore_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

const benchBody = `{"amount":1000,"currency":"EUR","customer":"cus_1"}`

var benchHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	io.WriteString(w, `{"id":"pay_1","status":"succeeded"}`)
})

// BenchmarkMiddleware measures keyed requests through the middleware on PostgreSQL (loopback):
// requests per second and statements (round trips) per request, for a new key and a replay,
// from one goroutine and from many (RunParallel, GOMAXPROCS goroutines x 4).
func BenchmarkMiddleware(b *testing.B) {
	e := newEnv(b)
	h := idempotency.Middleware(idempotency.Config{
		Runner: idempotency.Runner{Store: e.store},
		Tenant: func(r *http.Request) (string, error) { return "tenant-a", nil },
	})(benchHandler)
	var seq atomic.Int64
	serve := func(b *testing.B, key string) {
		r := httptest.NewRequest(http.MethodPost, "/v1/payments", bytes.NewReader([]byte(benchBody)))
		r.Header.Set("Idempotency-Key", key)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusCreated {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
	newKey := func() string { return fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), seq.Add(1)) }
	serve(b, "replayed") // the key the replay benchmarks hit

	report := func(b *testing.B, start time.Time, q0 int64) {
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
		b.ReportMetric(float64(e.queries.n.Load()-q0)/float64(b.N), "queries/op")
	}
	// The floor: one trivial statement through the same pool.
	b.Run("select-1", func(b *testing.B) {
		q0, start := e.queries.n.Load(), time.Now()
		for i := 0; i < b.N; i++ {
			var one int
			if err := e.pool.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		report(b, start, q0)
	})
	for _, bc := range []struct {
		name     string
		key      func() string
		parallel bool
	}{
		{"new-key", newKey, false},
		{"replay", func() string { return "replayed" }, false},
		{"new-key-parallel", newKey, true},
		{"replay-parallel", func() string { return "replayed" }, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			q0, start := e.queries.n.Load(), time.Now()
			b.ResetTimer()
			if bc.parallel {
				b.SetParallelism(4)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						serve(b, bc.key())
					}
				})
			} else {
				for i := 0; i < b.N; i++ {
					serve(b, bc.key())
				}
			}
			b.StopTimer()
			report(b, start, q0)
		})
	}
}
