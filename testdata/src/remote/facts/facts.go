// Package facts has functions that pass their context to remote calls: they get ParamFacts.
package facts

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"example.com/greeterpb"
)

type Client struct {
	greeter greeterpb.GreeterClient
}

func (c *Client) Hello(ctx context.Context, name string) error { // want Hello:`passes the context of parameter 1 to GreeterClient.SayHello at facts.go:18` Hello:`reaches a remote call`
	_, err := c.greeter.SayHello(ctx, &greeterpb.HelloRequest{Name: name}) // want `gRPC call GreeterClient.SayHello: unknown \(context from parameter 1\)`
	return err
}

func Fetch(ctx context.Context, url string) error { // want Fetch:`passes the context of parameter 0 to http.Client.Do at facts.go:24` Fetch:`reaches a remote call`
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	_, err := http.DefaultClient.Do(req) // want `HTTP call http.Client.Do \(GET\): unknown \(context from parameter 0; through http.DefaultClient\)`
	return err
}

func Send(req *http.Request) error { // want Send:`passes the request context of parameter 0 to http.Client.Do at facts.go:29` Send:`reaches a remote call` Send:`sends the request of parameter 0`
	_, err := http.DefaultClient.Do(req) // want `HTTP call http.Client.Do: unknown \(request from parameter 0; through http.DefaultClient\)`
	return err
}

var timed = &http.Client{Timeout: time.Second}

// Bounded: its client has a timeout, so no fact.
func FetchTimed(ctx context.Context, url string) error { // want FetchTimed:`reaches a remote call`
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	_, err := timed.Do(req) // want `HTTP call http.Client.Do \(GET\): bounded by http.Client.Timeout`
	return err
}

// Bounded: it adds a deadline itself.
func FetchWithDeadline(ctx context.Context, url string) error { // want FetchWithDeadline:`reaches a remote call`
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	_, err := http.DefaultClient.Do(req) // want `HTTP call http.Client.Do \(GET\): bounded by context.WithTimeout`
	return err
}

type Store struct {
	db *sql.DB
}

// The context-free form of an API: its callers are checked, through a fact.
func (s *Store) Query(q string) error { // want Query:`passes no context to sql.DB.Query at facts.go:57` Query:`reaches a remote call`
	_, err := s.db.Query(q) // want `SQL call sql.DB.Query: unbounded \[the context-free form of Query\] \(no context\)`
	return err
}

// Wrappers of wrappers pass the context on too, to any depth.
func fetchTwice(ctx context.Context, url string) error { // want fetchTwice:`passes the context of parameter 0 to http.Client.Do at facts.go:24`
	if err := Fetch(ctx, url); err != nil { // want `HTTP call http.Client.Do via Fetch: unknown \(context from parameter 0\)`
		return err
	}
	return Fetch(ctx, url) // want `HTTP call http.Client.Do via Fetch: unknown \(context from parameter 0\)`
}

func FetchAll(ctx context.Context, urls []string) error { // want FetchAll:`passes the context of parameter 0 to http.Client.Do at facts.go:24` FetchAll:`reaches a remote call`
	for _, u := range urls {
		if err := fetchTwice(ctx, u); err != nil { // want `HTTP call http.Client.Do via fetchTwice: unknown \(context from parameter 0\)`
			return err
		}
	}
	return nil
}

// Constructors: what they return is known to their callers in other packages.
func NewClient() *http.Client { // want NewClient:`returns the http.Client made at facts.go:80 \(result 0\)`
	return &http.Client{}
}

func NewTimedClient() *http.Client {
	return &http.Client{Timeout: time.Second}
}

// A client handed down: the callers' clients decide.
func Download(c *http.Client, url string) error { // want Download:`passes the http.Client of parameter 0 to http.Client.Get at facts.go:89, without a deadline` Download:`reaches a remote call`
	_, err := c.Get(url) // want `HTTP call http.Client.Get \(GET\): unknown \(client from parameter 0\)`
	return err
}

// NewStatusRequest makes a request with no context: its callers elsewhere send one with no
// deadline of its own.
func NewStatusRequest(base string) (*http.Request, error) { // want NewStatusRequest:`returns a request without a context \(result 0\)`
	req, err := http.NewRequest(http.MethodGet, base+"/status", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// NewStatusRequestContext makes it with the caller's context: no fact.
func NewStatusRequestContext(ctx context.Context, base string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, base+"/status", nil)
}

// bounded bounds, in its transport, the wait for an answer's header, not the whole request.
var bounded = &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 10 * time.Second}}

// SendBounded sends a request its caller makes: the transport bounds it when the caller's
// body is in memory.
func SendBounded(req *http.Request) error { // want SendBounded:`passes the request context of parameter 0 \(its answer's header bounded by http.Transport.ResponseHeaderTimeout\) to http.Client.Do at facts.go:115 through the http.Client made at facts.go:110` SendBounded:`reaches a remote call` SendBounded:`sends the request of parameter 0`
	resp, err := bounded.Do(req) // want `HTTP call http.Client.Do: unknown \(request from parameter 0; through the http.Client made at line 110\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Instrument hands back the client it is given, its transport wrapped, or the default one.
func Instrument(next *http.Client) *http.Client { // want Instrument:`returns the http.Client of parameter 0 \(result 0\)`
	if next == nil {
		next = http.DefaultClient
	}
	next.Transport = &countingTransport{next: next.Transport}
	return next
}

// InstrumentTimed sets a timeout on the client it hands back: no fact.
func InstrumentTimed(next *http.Client) *http.Client {
	next.Transport = &countingTransport{next: next.Transport}
	next.Timeout = time.Minute
	return next
}

type countingTransport struct{ next http.RoundTripper }

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) { // want RoundTrip:`passes the request context of parameter 1 to http.RoundTripper.RoundTrip at facts.go:141` RoundTrip:`reaches a remote call` RoundTrip:`sends the request of parameter 1`
	return c.next.RoundTrip(req) // want `HTTP call http.RoundTripper.RoundTrip: unknown \(request from parameter 1\)`
}
