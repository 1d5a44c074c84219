package calls

import "net/http"

// A client that is the caller's when given, and a default without a timeout otherwise.
func fallback(hc *http.Client, url string) {
	if hc == nil {
		hc = http.DefaultClient
	}
	hc.Get(url) // want `HTTP call http.Client.Get \(GET\): unbounded \(http.DefaultClient, the default when no client is given; no context\)`
}
