package loops

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// A load-balancing transport: each round sends to the least loaded backend that is not
// marked broken, and a failure marks the backend it was sent to, so the next round tries
// another; there are as many rounds as backends. It fails over; it does not retry the
// failing one.

type lbBackend struct {
	url    string
	broken atomic.Int64 // until when, in Unix seconds
	active atomic.Int32
}

type lbPool struct {
	mu       sync.Mutex
	backends []*lbBackend
}

func (p *lbPool) leastLoaded() *lbBackend {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now().Unix()
	var best *lbBackend
	for _, b := range p.backends {
		if b.broken.Load() > now {
			continue
		}
		if best == nil || b.active.Load() < best.active.Load() {
			best = b
		}
	}
	if best == nil {
		best = p.backends[0]
	}
	return best
}

type lbTransport struct {
	pool *lbPool
	next http.RoundTripper
}

func (t *lbTransport) send(r *http.Request, b *lbBackend) (*http.Response, error) {
	b.active.Add(1)
	defer b.active.Add(-1)
	r2 := r.Clone(r.Context())
	r2.URL.Host = b.url
	return t.next.RoundTrip(r2)
}

// ---- Not reported: a failover over the backends ----

func (t *lbTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	n := len(t.pool.backends)
	if n == 0 {
		return nil, fmt.Errorf("no backends for %s", r.URL.Host)
	}
	var lastErr error
	for range n {
		b := t.pool.leastLoaded()
		resp, err := t.send(r, b)
		if err != nil {
			b.broken.Store(time.Now().Add(3 * time.Second).Unix())
			if r.Body != nil && r.GetBody == nil {
				return nil, err // the body cannot be sent again
			}
			lastErr = err
			continue
		}
		return resp, nil
	}
	return nil, fmt.Errorf("all backends are unavailable: %w", lastErr)
}

// ---- Reported: the same backend again, at once ----

type lbRetrier struct {
	pool    *lbPool
	next    http.RoundTripper
	retries int
}

func (t *lbRetrier) RoundTrip(r *http.Request) (*http.Response, error) {
	var lastErr error
	for i := 0; i <= t.retries; i++ { // related "failover.go:93: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		b := t.pool.leastLoaded()
		resp, err := (&lbTransport{pool: t.pool, next: t.next}).send(r, b)
		if err != nil {
			lastErr = err
			continue
		}
		return resp, nil
	}
	return nil, lastErr
}
