// Package deadlinetransport makes the HTTP transports a suite of daemons shares: each bounds
// the connect, the TLS handshake and the wait for a response's header.
package deadlinetransport

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"
)

// New returns a transport that gives up on a peer that does not connect within connect, or
// does not answer within request.
func New(connect, request time.Duration) *http.Transport {
	return &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: (&net.Dialer{
			Timeout:   connect,
			KeepAlive: 30 * time.Second,
		}).DialContext,
		ResponseHeaderTimeout: request,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
	}
}

// NewTLS is New with a TLS configuration.
func NewTLS(cfg *tls.Config, connect, request time.Duration) *http.Transport {
	t := New(connect, request)
	t.TLSClientConfig = cfg
	return t
}

// Pooled returns a transport tuned for many idle connections; it bounds only the connect.
func Pooled(connect time.Duration) *http.Transport {
	return &http.Transport{
		DialContext:         (&net.Dialer{Timeout: connect}).DialContext,
		MaxIdleConns:        512,
		MaxIdleConnsPerHost: 64,
	}
}
