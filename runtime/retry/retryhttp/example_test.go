package retryhttp_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retryhttp"
)

func ExampleTransport() {
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		if len(keys) < 3 {
			w.Header().Set("Retry-After", "0") // bad values are ignored
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()

	client := &http.Client{
		Timeout: 10 * time.Second,
		Transport: &retryhttp.Transport{
			Policy:          retry.Policy{BaseDelay: time.Millisecond},
			IdempotencyKeys: true, // one key per POST, the same on every attempt
		},
	}
	resp, err := client.Post(srv.URL, "application/json", strings.NewReader(`{"amount":1299}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, len(keys), keys[0] == keys[1] && keys[1] == keys[2])
	// Output: 201 3 true
}
