package metadataclient

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func newStubClient(rt roundTrip) *http.Client { return &http.Client{Transport: rt} }

func TestGet(t *testing.T) {
	rt := roundTrip(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(`{"id":"i-1"}`))}, nil
	})
	a := New(WithHTTPClient(newStubClient(rt)))
	m, err := a.Get(context.Background())
	if err != nil || m.ID != "i-1" {
		t.Fatalf("got %+v, %v", m, err)
	}
}
