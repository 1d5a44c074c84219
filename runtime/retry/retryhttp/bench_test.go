package retryhttp

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

// memoryTransport answers 200 from memory, so that the benchmark measures the retrying layer.
type memoryTransport struct{}

func (memoryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("ok")), Request: r}, nil
}

// BenchmarkTransportSuccess: a GET answered at once. The 4 allocations are the in-memory
// transport's response; the Transport adds none (bench/ compares it with go-retryablehttp and
// failsafe-go).
func BenchmarkTransportSuccess(b *testing.B) {
	for name, p := range map[string]retry.Policy{
		"no-timeout": {},
		"timeout":    {Timeout: 3 * time.Second},
	} {
		b.Run(name, func(b *testing.B) {
			tr := &Transport{Base: memoryTransport{}, Policy: p}
			req, _ := http.NewRequest(http.MethodGet, "http://example.test/v1/items/1", nil)
			b.ReportAllocs()
			for b.Loop() {
				resp, err := tr.RoundTrip(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}

// cannedTransport answers with one response, reused: it allocates nothing itself.
type cannedTransport struct{ resp *http.Response }

type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

func (c cannedTransport) RoundTrip(*http.Request) (*http.Response, error) { return c.resp, nil }

func TestTransportSuccessAllocatesNothingOfItsOwn(t *testing.T) {
	tr := &Transport{Base: cannedTransport{&http.Response{StatusCode: 200, Body: emptyBody{}}}}
	req, _ := http.NewRequest(http.MethodGet, "http://example.test/v1/items/1", nil)
	allocs := testing.AllocsPerRun(1000, func() {
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	})
	if allocs != 0 {
		t.Errorf("RoundTrip of a GET answered at once: %v allocations; want none", allocs)
	}
}
