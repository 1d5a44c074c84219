package idpclient

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// A test builds the client with a zero http.Client in the field: not what users run.
func TestCheckResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	defer srv.Close()
	hc := &HTTPClient{Client: http.Client{}, Options: &Options{}}
	hc.CheckResponse = func(*http.Request, *http.Response) error { return nil }
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
