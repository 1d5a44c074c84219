package memstore_test

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
)

var benchResponse = idempotency.Response{
	Status: http.StatusCreated,
	Header: http.Header{"Content-Type": {"application/json"}, "Location": {"/v1/payments/pay_5ba2974479c7c18b2123b313"}},
	Body:   []byte(`{"id":"pay_5ba2974479c7c18b2123b313","amount":1000,"currency":"EUR","customer":"cus_1","status":"succeeded"}`),
}

// fill stores n completed records, as the middleware would (a 26-character key, a 64-character
// fingerprint of its own, the response above).
func fill(b *testing.B, s *memstore.Store, n int) {
	for i := range n {
		c, err := s.Claim(ctx, idempotency.ClaimRequest{Scope: "tenant-a", Key: "01J8ZQ3V4N5K6M7P8R9S" + strconv.Itoa(1e6+i),
			Fingerprint: fmt.Sprintf("%064x", i), Lease: time.Minute, Retention: time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Complete(ctx, c.Lease, benchResponse); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecordMemory reports the heap that one completed record holds (the issue measured 766
// bytes before this store was made compact).
func BenchmarkRecordMemory(b *testing.B) {
	const n = 100_000
	var before, after runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		s := memstore.New()
		fill(b, s, n)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/record")
}

// BenchmarkClaimDuringReap measures the latency of claims made while Reap deletes 200k expired
// records: the p50, p99 and slowest claim, and the reap's own duration.
func BenchmarkClaimDuringReap(b *testing.B) {
	const n = 200_000
	var lat []time.Duration
	var reapTook time.Duration
	for b.Loop() {
		b.StopTimer()
		clock := storetest.NewClock()
		s := memstore.New(memstore.WithClock(clock.Now))
		fill(b, s, n)
		clock.Advance(2 * time.Hour)
		var done atomic.Bool
		go func() {
			start := time.Now()
			s.Reap(context.Background())
			reapTook = time.Since(start)
			done.Store(true)
		}()
		b.StartTimer()
		for i := 0; !done.Load(); i++ {
			start := time.Now()
			_, err := s.Claim(ctx, idempotency.ClaimRequest{Scope: "tenant-b", Key: "live-" + strconv.Itoa(i),
				Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
		}
	}
	slices.Sort(lat)
	q := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(q(0.5), "p50-us")
	b.ReportMetric(q(0.99), "p99-us")
	b.ReportMetric(q(1), "max-us")
	b.ReportMetric(float64(reapTook.Milliseconds()), "reap-ms")
}
