// Package shapes holds the shapes of code that paths go through: closures run per attempt,
// callbacks made before the loop or named, method values, recursion, goroutines, package
// variables, handler literals, a send helper, and layers that retry different failures.
package shapes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"

	retry "github.com/avast/retry-go/v4"
	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

var client = &http.Client{Timeout: 5 * time.Second}

// Catalog fetches with a closure per attempt, so that the deferred Close runs each time:
// one loop of 3, counted once.
func Catalog(ctx context.Context) ([]byte, error) { // want Catalog:"reaches catalog.example.com"
	var body []byte
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = func() error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://catalog.example.com/v1/items", nil)
			if err != nil {
				return err
			}
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			body, err = io.ReadAll(resp.Body)
			return err
		}()
		if err == nil {
			return body, nil
		}
		log.Printf("catalog: attempt %d: %v", attempt, err)
		time.Sleep(time.Second)
	}
	return nil, err
}

// Prices makes its operation once, before the loop, and retries it with retry-go inside a
// loop of 2: 2 × 4.
func Prices(ctx context.Context) error { // want Prices:"reaches prices.example.com"
	op := func() error {
		resp, err := client.Get("https://prices.example.com/v1/latest")
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	var err error
	for range 2 {
		if err = retry.Do(op, retry.Attempts(4), retry.Context(ctx)); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func stock() error {
	resp, err := client.Get("https://stock.example.com/v1/levels")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Stock hands a named function to retry-go (5 attempts); StockOnce calls it once.
func Stock(ctx context.Context) error { // want Stock:"reaches stock.example.com"
	return retry.Do(stock, retry.Attempts(5), retry.Context(ctx))
}

func StockOnce() error { return stock() } // want StockOnce:"reaches stock.example.com"

type Syncer struct{ base string }

func (s *Syncer) fetch() error {
	resp, err := client.Get("https://sync.example.com/v1/state")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Sync retries a method value six times.
func (s *Syncer) Sync(ctx context.Context) error { // want Sync:"reaches sync.example.com"
	return retry.Do(s.fetch, retry.Attempts(6), retry.Context(ctx))
}

// Walk goes through a recursion before it sends.
func Walk(n int) error { return down(n) } // want Walk:"reaches tree.example.com"

func down(n int) error {
	if n > 0 {
		return up(n - 1)
	}
	return nil
}

func up(n int) error {
	if err := down(n); err != nil {
		return err
	}
	resp, err := client.Get(fmt.Sprintf("https://tree.example.com/v1/node/%d", n))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Fire starts a ping it does not wait for on each round: the ping is not retried with it.
func Fire(ctx context.Context) error { // want Fire:"reaches ping.example.com, work.example.com"
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		go ping()
		if err = work(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func ping() {
	if resp, err := client.Get("https://ping.example.com/"); err == nil {
		resp.Body.Close()
	}
}

func work(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://work.example.com/v1/next", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Settings is loaded when the package is: its initialiser is an entry point.
var Settings = load()

func load() string {
	resp, err := client.Get("https://config.example.com/v1/settings")
	if err != nil {
		return ""
	}
	resp.Body.Close()
	return resp.Status
}

// Routes registers a handler literal: it runs per request, an entry point of its own.
func Routes(mux *http.ServeMux) {
	mux.HandleFunc("/quote", func(w http.ResponseWriter, r *http.Request) {
		resp, err := client.Get("https://quotes.example.com/v1/quote")
		if err != nil {
			http.Error(w, "no quote", http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		io.Copy(w, resp.Body)
	})
}

// send posts the request it is given three times; Charge keys it, Refund does not.
func send(req *http.Request) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		if resp, err = client.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

func Charge(ctx context.Context, key string) error { // want Charge:"reaches ledger.example.com"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://ledger.example.com/v1/charges", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	return send(req)
}

func Refund(ctx context.Context) error { // want Refund:"reaches ledger.example.com"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://ledger.example.com/v1/refunds", nil)
	if err != nil {
		return err
	}
	return send(req)
}

var errConflict = errors.New("conflict")

// Upload goes round only on a conflict, which the self-retrying client never retries: the
// attempts do not multiply (3 on a conflict, 5 on a transient failure).
func Upload(rc *retryablehttp.Client) error { // want Upload:"reaches files.example.com"
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := rc.Get("https://files.example.com/v1/upload")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusConflict {
			return nil
		}
		log.Printf("upload: conflict, attempt %d", attempt)
		time.Sleep(time.Second)
	}
	return err
}

// A Pool dials through the function it keeps: the dial runs later, on each connection, but the
// dependency is the pool's all the same.
type Pool struct {
	dial func(ctx context.Context) (io.ReadCloser, error)
}

func NewPool(addr string) *Pool { // want NewPool:"reaches kv.example.com"
	return &Pool{dial: func(ctx context.Context) (io.ReadCloser, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://kv.example.com/v1/connect?addr="+addr, nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		return resp.Body, nil
	}}
}

// Dialer is set and called in each round of Connect's loop, through a field of the options it
// is given: the retry loop is around what it calls (3 × the client's 5 retries).
type Dialer struct {
	Dial func() error
}

var retrying = retryablehttp.NewClient()

func dialKV(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "https://dial.example.com/v1/open", nil)
	if err != nil {
		return err
	}
	resp, err := retrying.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Connect(ctx context.Context, d *Dialer) error { // want Connect:"reaches dial.example.com"
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		d.Dial = func() error { return dialKV(ctx) }
		if err = d.Dial(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Server's handler is a literal converted to http.HandlerFunc and kept in the server: an entry
// point of its own.
func Server() *http.Server {
	return &http.Server{Addr: ":8080", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp, err := client.Get("https://status.example.com/v1/health")
		if err != nil {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		resp.Body.Close()
	})}
}

// Paginate follows pages by recursion through next; Resume starts from next.
func Paginate(url string) error { // want Paginate:"reaches HTTP API called from depmap/shapes"
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return next(url)
}

func next(url string) error {
	if url == "" {
		return nil
	}
	return Paginate(url + "?page=2")
}

func Resume(url string) error { return next(url) } // want Resume:"reaches HTTP API called from depmap/shapes"
