package pkgclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hashicorp/go-retryablehttp"
)

func TestValidate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"id":"l1","status":"ACTIVE"}`))
	}))
	defer srv.Close()
	rc := retryablehttp.NewClient()
	rc.RetryMax = 2
	HTTPClient = rc.StandardClient()
	c := &Client{Account: "a", Token: "t"}
	if _, err := c.Validate(context.Background(), "k"); err == nil {
		t.Log("validated against the real API path; the test server only answers")
	}
}
