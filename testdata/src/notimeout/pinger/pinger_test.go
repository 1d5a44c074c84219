package pinger

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestTryPing(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	d := NewDispatcher(slog.Default())
	if err := d.tryPing(context.Background(), PingOptions{Endpoint: srv.URL, Method: http.MethodGet}); err != nil {
		t.Fatal(err)
	}
}
