package usedoerlib

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"notimeout/doerlib"
)

// The test's adapter sends through a client without a Timeout to a local server: not what
// the package runs.
func TestCreateNamespace(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	a := &adapter{url: srv.URL, client: doerlib.NewClient(&http.Client{Transport: http.DefaultTransport})}
	if err := a.createNamespace(namespace{Name: "ns"}); err != nil {
		t.Fatal(err)
	}
}
