package fieldclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestGet(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"id":"a","size":1}`))
	}))
	defer server.Close()
	c := &Client{HTTP: server.Client(), Origin: server.URL}
	if _, err := c.Get(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
}
