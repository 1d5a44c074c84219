package notifyseam

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestNotify(t *testing.T) {
	var got *http.Request
	doHTTPRequest = func(req *http.Request) (*http.Response, error) {
		got = req
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
	if err := New("https://hooks.example.com/alerts", nil).Notify(context.Background(), Alert{Name: "disk"}); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Method != http.MethodPost {
		t.Fatalf("request = %v", got)
	}
}
