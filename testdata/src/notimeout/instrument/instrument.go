// Package instrument counts the requests a program's HTTP clients send, by wrapping their
// transports.
package instrument

import (
	"net/http"
	"sync/atomic"
	"time"
)

// Sent counts the requests sent through instrumented clients.
var Sent atomic.Int64

type counting struct {
	next http.RoundTripper
}

func (c *counting) RoundTrip(req *http.Request) (*http.Response, error) {
	Sent.Add(1)
	return c.next.RoundTrip(req)
}

// Client wraps the transport of next, or of the default client when next is nil, and hands
// the same client back.
func Client(next *http.Client) *http.Client {
	if next == nil {
		next = http.DefaultClient
	}
	next.Transport = Transport(next.Transport)
	return next
}

// Transport wraps next, or the default transport when next is nil.
func Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &counting{next: next}
}

// Bounded is Client with a timeout of its own: the clients it hands back are bounded.
func Bounded(next *http.Client, d time.Duration) *http.Client {
	next.Transport = Transport(next.Transport)
	next.Timeout = d
	return next
}
