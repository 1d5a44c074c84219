// Package latest is a production package whose name only happens to end in "test".
package latest

import "net/http"

// ---- Reported ----

func Fetch(url string) (*http.Response, error) {
	return http.Get(url) // want `http\.Get uses http\.DefaultClient \(no timeout\), so a stalled server hangs this call; use a client with a Timeout`
}
