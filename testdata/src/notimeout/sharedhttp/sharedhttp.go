// Package sharedhttp holds the HTTP clients a module's packages share, which name the module
// in every request's User-Agent.
package sharedhttp

import (
	"net/http"
	"time"
)

// Transport adds the module's User-Agent to requests that have none.
type Transport struct {
	Base http.RoundTripper
}

// RoundTrip sets the User-Agent and sends req through the base transport.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("User-Agent") != "" {
		return t.Base.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.Header.Set("User-Agent", "widgetkit/1.4")
	return t.Base.RoundTrip(r)
}

var (
	// DefaultTransport is the module's transport.
	DefaultTransport http.RoundTripper = &Transport{Base: http.DefaultTransport}

	// DefaultClient is the client the module's packages send through by default. It has no
	// Timeout: a request that carries no deadline waits for a stalled server for good.
	DefaultClient = &http.Client{Transport: DefaultTransport}

	// TimedClient bounds every request.
	TimedClient = &http.Client{Transport: DefaultTransport, Timeout: 30 * time.Second}
)
