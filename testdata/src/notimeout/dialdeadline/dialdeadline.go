// Package dialdeadline is an HTTP request builder whose transports dial through functions of
// its own.
package dialdeadline

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"time"
)

// Settings configure a Request.
type Settings struct {
	ConnectTimeout   time.Duration
	ReadWriteTimeout time.Duration
	Transport        http.RoundTripper
	TLS              *tls.Config
}

// DefaultSettings connect within 30s and give each connection 60s.
var DefaultSettings = Settings{ConnectTimeout: 30 * time.Second, ReadWriteTimeout: 60 * time.Second}

// TimeoutDialer dials within connect and then gives the connection rw to do all its reads and
// writes: a stalled server cannot hold a request past it.
func TimeoutDialer(connect, rw time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := net.DialTimeout(network, addr, connect)
		if err != nil {
			return nil, err
		}
		if err := conn.SetDeadline(time.Now().Add(rw)); err != nil {
			conn.Close()
			return nil, err
		}
		return conn, nil
	}
}

// Request is one HTTP request being built.
type Request struct {
	req      *http.Request
	settings Settings
}

// Get starts a GET request.
func Get(ctx context.Context, url string) (*Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return &Request{req: req, settings: DefaultSettings}, nil
}

func (r *Request) transport() http.RoundTripper {
	if r.settings.Transport != nil {
		return r.settings.Transport // the caller's: its own choice
	}
	return &http.Transport{
		TLSClientConfig:     r.settings.TLS,
		DialContext:         TimeoutDialer(r.settings.ConnectTimeout, r.settings.ReadWriteTimeout),
		MaxIdleConnsPerHost: 100,
	}
}

// Bytes sends the request and reads the answer: its client has no Timeout, but every
// connection it dials has a deadline. Not reported.
func (r *Request) Bytes() ([]byte, error) {
	client := &http.Client{Transport: r.transport()}
	resp, err := client.Do(r.req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// Fetch dials with a connect timeout only: once connected, a stalled server holds the request
// for as long as its caller's context lets it.
func Fetch(ctx context.Context, url string) ([]byte, error) {
	d := &net.Dialer{Timeout: 5 * time.Second}
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}} // related "dialdeadline.go:88: Fetch sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Fetch can hang unless callers set deadlines; set a default Timeout`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
