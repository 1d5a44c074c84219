package pricingapi

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hashicorp/go-retryablehttp"
)

func TestPrices(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"prices":[]}`))
	}))
	defer srv.Close()
	rc := retryablehttp.NewClient()
	rc.Logger = nil
	c := &Client{hc: rc, endpoint: srv.URL}
	if _, err := c.Prices("m5.large"); err != nil {
		t.Fatal(err)
	}
}
