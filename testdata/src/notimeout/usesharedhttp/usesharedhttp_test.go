package usesharedhttp

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"notimeout/sharedhttp"
)

// The test's stand-in for the shared client is not what the package runs: DownloadImage is
// still reported.
func TestDownloadImage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte{0x89, 'P', 'N', 'G'})
	}))
	defer srv.Close()
	old := sharedhttp.DefaultClient
	sharedhttp.DefaultClient = srv.Client()
	defer func() { sharedhttp.DefaultClient = old }()
	sub, _, err := DownloadImage(srv.URL)
	if err != nil || sub != "png" {
		t.Fatalf("DownloadImage = %q, %v", sub, err)
	}
}
