// Package wraptransport makes the HTTP clients of a sync tool's backends. Their transport is a
// wrapper that embeds an *http.Transport, logs each exchange and sets a header; the
// http.Transport it wraps is made with new and tuned field by field, its ResponseHeaderTimeout
// from the tool's configuration. The clients have no Timeout, by design: downloads stream for
// as long as they need, and the header timeout bounds the wait for a stalled server.
package wraptransport

import (
	"context"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// Config is the tool's global configuration.
type Config struct {
	ConnectTimeout time.Duration
	Timeout        time.Duration // idle timeout of an exchange
	UserAgent      string
	Dump           bool
}

type configKey struct{}

var defaultConfig = &Config{ConnectTimeout: time.Minute, Timeout: 5 * time.Minute, UserAgent: "sync/1.0"}

// GetConfig returns the configuration in ctx, or the default one.
func GetConfig(ctx context.Context) *Config {
	if c, ok := ctx.Value(configKey{}).(*Config); ok {
		return c
	}
	return defaultConfig
}

// setDefaults copies the exported settings of src into dst.
func setDefaults(dst, src *http.Transport) {
	dst.Proxy = src.Proxy
	dst.MaxIdleConns = src.MaxIdleConns
	dst.IdleConnTimeout = src.IdleConnTimeout
	dst.ExpectContinueTimeout = src.ExpectContinueTimeout
}

// Transport logs each exchange and sets the user agent, then sends through the http.Transport
// it embeds.
type Transport struct {
	*http.Transport
	userAgent string
	dump      bool
	mu        sync.Mutex
	sent      int
}

func newTransport(ci *Config, t *http.Transport) *Transport {
	return &Transport{
		Transport: t,
		userAgent: ci.UserAgent,
		dump:      ci.Dump,
	}
}

// RoundTrip sends req through the embedded transport.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("User-Agent", t.userAgent)
	t.mu.Lock()
	t.sent++
	t.mu.Unlock()
	if t.dump {
		log.Printf("> %s %s", req.Method, req.URL)
	}
	resp, err := t.Transport.RoundTrip(req)
	if err != nil {
		log.Printf("< %s %s: %v", req.Method, req.URL, err)
		return nil, err
	}
	if t.dump {
		log.Printf("< %s", resp.Status)
	}
	return resp, nil
}

// NewTransportCustom makes the transport, letting customize change its settings.
func NewTransportCustom(ctx context.Context, customize func(*http.Transport)) *Transport {
	ci := GetConfig(ctx)
	t := new(http.Transport)
	setDefaults(t, http.DefaultTransport.(*http.Transport))
	t.MaxIdleConnsPerHost = 8
	t.TLSHandshakeTimeout = ci.ConnectTimeout
	t.ResponseHeaderTimeout = ci.Timeout
	dialer := &net.Dialer{Timeout: ci.ConnectTimeout, KeepAlive: 30 * time.Second}
	t.DialContext = dialer.DialContext
	if customize != nil {
		customize(t)
	}
	return newTransport(ci, t)
}

// NewClient makes a client for a backend.
func NewClient(ctx context.Context) *http.Client {
	return NewClientCustom(ctx, nil)
}

// NewClientCustom makes a client whose transport customize may change.
func NewClientCustom(ctx context.Context, customize func(*http.Transport)) *http.Client {
	return &http.Client{
		Transport: NewTransportCustom(ctx, customize),
	}
}

// Tracer is a second wrapper, around a transport that bounds only the connect: a server that
// accepts and never answers hangs it.
type Tracer struct {
	*http.Transport
	name string
}

// RoundTrip sends req through the embedded transport.
func (t *Tracer) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.Transport.RoundTrip(req)
	log.Printf("%s %s %s: %v", t.name, req.Method, req.URL, time.Since(start))
	return resp, err
}

// NewTracedClient makes a client whose transport bounds only the connect.
func NewTracedClient(name string) *http.Client {
	t := new(http.Transport)
	t.DialContext = (&net.Dialer{Timeout: 10 * time.Second}).DialContext
	t.MaxIdleConns = 16
	return &http.Client{Transport: &Tracer{Transport: t, name: name}}
}

// Probe asks whether a backend answers; the answer's header is all it reads. Not reported: the
// transport's ResponseHeaderTimeout bounds the call.
func Probe(endpoint string) (int, error) {
	client := NewClient(context.Background())
	resp, err := client.Head(endpoint)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
