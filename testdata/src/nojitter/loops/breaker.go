package loops

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// A retry loop around a circuit breaker: the attempt is the function literal the breaker runs.

var errServer = errors.New("server error")

type breaker struct {
	mu       sync.Mutex
	failures int
}

// runFunc is the work a breaker guards.
type runFunc func() error

// Do runs op unless the breaker is open.
func (b *breaker) Do(name string, op runFunc) error {
	b.mu.Lock()
	open := b.failures > 5
	b.mu.Unlock()
	if open {
		return errors.New(name + ": circuit open")
	}
	err := op()
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.failures++
	} else {
		b.failures = 0
	}
	return err
}

type guarded struct {
	hc      *http.Client
	cb      *breaker
	retries int
}

// Send retries a request it is given through the breaker: each attempt carries the request's
// context, so the loop observes the caller's deadline; only its fixed wait is reported.
func (g *guarded) Send(req *http.Request) (*http.Response, error) {
	var (
		resp *http.Response
		err  error
	)
	for i := 0; i <= g.retries; i++ {
		if resp != nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		err = g.cb.Do("send", func() error {
			resp, err = g.hc.Do(req)
			if err != nil {
				return err
			}
			if resp.StatusCode >= http.StatusInternalServerError {
				return errServer
			}
			return nil
		})
		if err != nil {
			time.Sleep(500 * time.Millisecond) // related "breaker.go:56: retry loop" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		break
	}
	return resp, err
}

// Fetch builds its request without the context it has: the loop ignores ctx.
func (g *guarded) Fetch(ctx context.Context, url string) (*http.Response, error) {
	var (
		resp *http.Response
		err  error
	)
	for i := 0; i <= g.retries; i++ { // related "breaker.go:86: retry loop" // want `retry loop ignores ctx: its retries outlive the caller; pass ctx on`
		err = g.cb.Do("fetch", func() error {
			req, err := http.NewRequest(http.MethodGet, url, nil)
			if err != nil {
				return err
			}
			resp, err = g.hc.Do(req)
			return err
		})
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond) // related "breaker.go:86: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	return nil, err
}
