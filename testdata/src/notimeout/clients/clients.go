// Package clients: http.Client values built in the package, reported once at the client
// with a fix that adds a Timeout.
package clients

import (
	"context"
	"net/http"
	"time"
)

// ---- Reported ----

var shared = &http.Client{} // related "clients.go:17: Client.Do sends a request without a context through it" "clients.go:16: http.NewRequest gives the request no context" "clients.go:21: Client.Get sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Do \(and 1 other call\); set Timeout`

func useShared(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	shared.Do(req)
}

func useSharedAgain(u string) {
	shared.Get(u)
}

func local(u string) {
	c := &http.Client{Transport: http.DefaultTransport} // related "clients.go:26: Client.Post sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Post, whose request has no deadline; set Timeout`
	c.Post(u, "text/plain", nil)
}

func multiline(u string) {
	c := &http.Client{ // related "clients.go:37: Client.Do sends a request whose context has no deadline through it" "clients.go:36: context.Background() has no deadline" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Do, whose request has no deadline; set Timeout`
		Transport: &http.Transport{
			MaxIdleConns: 10,
		},
		CheckRedirect: nil,
	}
	req, _ := http.NewRequestWithContext(context.Background(), "POST", u, nil)
	c.Do(req)
}

func value(u string) {
	c := http.Client{} // related "clients.go:42: Client.Get sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Get, whose request has no deadline; set Timeout`
	c.Get(u)
}

func newClient(u string) {
	c := new(http.Client) // related "clients.go:47: Client.Head sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Head, whose request has no deadline; set Timeout`
	c.Head(u)
}

func zeroVar(u string) {
	var c http.Client // related "clients.go:52: Client.Get sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Get, whose request has no deadline; set Timeout`
	c.Get(u)
}

type api struct {
	client *http.Client
	base   string
}

func newAPI(base string) *api {
	return &api{client: &http.Client{}, base: base} // related "clients.go:69: Client.Do sends a request without a context through it" "clients.go:65: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Do, whose request has no deadline; set Timeout`
}

func (a *api) get(path string) error {
	req, err := http.NewRequest("GET", a.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A constructor of the same package, seen through its return.
func makeClient() *http.Client {
	return &http.Client{} // related "clients.go:82: Client.Get sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Get, whose request has no deadline; set Timeout`
}

func viaConstructor(u string) {
	makeClient().Get(u)
}

type zeroHolder struct {
	c http.Client // related "clients.go:90: Client.Get sends a request without a context through it" // want `the zero http\.Client in field c has no Timeout, so a stalled server hangs Client\.Get; set Timeout`
}

func (z *zeroHolder) get(u string) {
	z.c.Get(u)
}

// A client captured by a goroutine's closure is still the one built here.
func captured(u string) {
	c := &http.Client{} // related "clients.go:99: Client.Get sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Get, whose request has no deadline; set Timeout`
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Get(u)
	}()
	<-done
}

// A field that an option may replace with the caller's client, holding a default without a
// timeout otherwise: the default path is real.
type optClient struct {
	hc *http.Client
}

type option func(*optClient)

func withHTTPClient(hc *http.Client) option { return func(o *optClient) { o.hc = hc } }

func newOptClient(opts ...option) *optClient {
	o := &optClient{hc: &http.Client{}} // related "clients.go:123: Client.Get sends a request without a context through it" "clients.go:112: a client given here replaces the default" // want `this default http\.Client has no Timeout, so a stalled server hangs Client\.Get; set Timeout`
	for _, opt := range opts {
		opt(o)
	}
	return o
}

func (o *optClient) get(u string) {
	o.hc.Get(u)
}

// ---- Not reported ----

var timed = &http.Client{Timeout: 10 * time.Second}

func useTimed(u string) {
	timed.Get(u)
}

func timeoutVariable(u string, d time.Duration) {
	c := &http.Client{Timeout: d}
	c.Get(u)
}

func timeoutSetLater(u string) {
	c := &http.Client{}
	c.Timeout = 5 * time.Second
	c.Get(u)
}

func valueWithTimeout(u string) {
	c := http.Client{Timeout: time.Minute}
	c.Get(u)
}

// A client without a timeout, but every request it sends has a deadline.
var noTimeoutButDeadlines = &http.Client{}

func deadlineOnly(u string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	noTimeoutButDeadlines.Do(req)
}

// A client given to a function that could configure it.
func configure(c *http.Client) { c.Timeout = time.Second }

func configured(u string) {
	c := &http.Client{}
	configure(c)
	c.Get(u)
}

// An explicit zero Timeout says "no timeout" on purpose (a streaming download).
func streaming(u string) {
	c := &http.Client{Timeout: 0}
	c.Get(u)
}

// A field assigned from the caller's client: unknown.
type wrapper struct {
	hc *http.Client
}

func newWrapper(hc *http.Client) *wrapper {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &wrapper{hc: hc}
}

func (w *wrapper) get(u string) {
	w.hc.Get(u)
}
