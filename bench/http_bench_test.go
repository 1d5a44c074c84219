package bench

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go/failsafehttp"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retryhttp"
)

// HTTP clients that retry, side by side as http.RoundTrippers over an in-memory transport, so that
// the numbers are the retrying layer's own cost: at most 4 attempts, exponential backoff with
// jitter from the smallest base each accepts (go-retryablehttp's backoff is not jittered), 503
// retried.

// fakeTransport answers from memory: the statuses in turn (the last one from then on). Its own
// cost (a response and a body per attempt) is the same for every contender.
type fakeTransport struct {
	statuses []int
	n        int
}

func (f *fakeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	status := f.statuses[min(f.n, len(f.statuses)-1)]
	f.n++
	return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("ok")),
		ContentLength: 2, Request: r}, nil
}

type transportContender struct {
	name string
	make func(base http.RoundTripper) http.RoundTripper
}

var transportContenders = []transportContender{
	{"idemlint-retryhttp", func(base http.RoundTripper) http.RoundTripper {
		return &retryhttp.Transport{Base: base, Policy: retry.Policy{BaseDelay: time.Nanosecond}}
	}},
	{"go-retryablehttp", func(base http.RoundTripper) http.RoundTripper {
		c := retryablehttp.NewClient()
		c.HTTPClient = &http.Client{Transport: base}
		c.Logger = nil
		c.RetryMax = 3
		c.RetryWaitMin, c.RetryWaitMax = time.Nanosecond, 5*time.Second
		c.Backoff = retryablehttp.DefaultBackoff // its default: exponential, not jittered (it has no jittered exponential one)
		return &retryablehttp.RoundTripper{Client: c}
	}},
	{"failsafe-go-http", func(base http.RoundTripper) http.RoundTripper {
		rp := failsafehttp.NewRetryPolicyBuilder().WithMaxAttempts(4).
			WithBackoff(time.Nanosecond, 5*time.Second).WithJitterFactor(0.5).Build()
		return failsafehttp.NewRoundTripper(base, rp)
	}},
}

func roundTrip(b testing.TB, rt http.RoundTripper, req *http.Request) int {
	resp, err := rt.RoundTrip(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestTransportsAreSetUpAlike checks the attempts each contender makes.
func TestTransportsAreSetUpAlike(t *testing.T) {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://example.test/v1/items/1", nil)
	for _, c := range transportContenders {
		for _, tc := range []struct {
			statuses []int
			attempts int
			status   int
		}{{[]int{200}, 1, 200}, {[]int{503, 503, 200}, 3, 200}, {[]int{503}, 4, 503}} {
			base := &fakeTransport{statuses: tc.statuses}
			rt := c.make(base)
			resp, err := rt.RoundTrip(req)
			if err != nil {
				if c.name != "idemlint-retryhttp" && tc.status == 503 && base.n == tc.attempts {
					continue // it returns an error, not the last response, when it gives up
				}
				t.Fatalf("%s %v: %v", c.name, tc.statuses, err)
			}
			resp.Body.Close()
			if base.n != tc.attempts || resp.StatusCode != tc.status {
				t.Errorf("%s %v: %d attempts, status %d; want %d, %d", c.name, tc.statuses, base.n, resp.StatusCode, tc.attempts, tc.status)
			}
		}
	}
}

func benchmarkTransport(b *testing.B, statuses []int) {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://example.test/v1/items/1", nil)
	for _, c := range transportContenders {
		b.Run(c.name, func(b *testing.B) {
			base := &fakeTransport{statuses: statuses}
			rt := c.make(base)
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				base.n = 0
				if roundTrip(b, rt, req) != 200 {
					b.Fatal("not 200")
				}
			}
			cpu.report(b)
		})
	}
}

// BenchmarkTransportSuccess: a GET answered 200 at once.
func BenchmarkTransportSuccess(b *testing.B) { benchmarkTransport(b, []int{200}) }

// BenchmarkTransportThirdAttempt: a GET answered 503, 503, then 200.
func BenchmarkTransportThirdAttempt(b *testing.B) { benchmarkTransport(b, []int{503, 503, 200}) }
