package loops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// Loops that walk a cursor or a list of servers try each element once: iteration and
// failover, not a retry of one dependency.

var errNoSeries = errors.New("series not found")

// SeriesIndex looks series up; its implementation may be remote.
type SeriesIndex interface {
	Series(ref uint64, into *[]string) error
}

// postings walks a list of references.
type postings struct {
	refs []uint64
	i    int
}

func (p *postings) Next() bool { p.i++; return p.i <= len(p.refs) }
func (p *postings) At() uint64 { return p.refs[p.i-1] }
func (p *postings) Err() error { return nil }
func (p *postings) Len() int   { return len(p.refs) }

type seriesSet struct {
	p     *postings
	index SeriesIndex
	buf   []string
	err   error
}

// Next skips references whose series is gone: each round looks up the next reference.
func (s *seriesSet) Next() bool {
	for s.p.Next() {
		if err := s.index.Series(s.p.At(), &s.buf); err != nil {
			if errors.Is(err, errNoSeries) {
				continue
			}
			s.err = fmt.Errorf("series %d: %w", s.p.At(), err)
			return false
		}
		if len(s.buf) == 0 {
			continue
		}
		return true
	}
	return false
}

// Invoker sends a command to a name server.
type Invoker interface {
	Invoke(ctx context.Context, addr string, cmd []byte) ([]byte, error)
}

type nameServers struct {
	mu     sync.Mutex
	addrs  []string
	next   int
	client Invoker
}

func (s *nameServers) Size() int { return len(s.addrs) }

func (s *nameServers) address() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.addrs[s.next%len(s.addrs)]
	s.next++
	return a
}

// Route asks each name server once, in turn, until one answers: failover.
func (s *nameServers) Route(cmd []byte) ([]byte, error) {
	var (
		resp []byte
		err  error
	)
	for i := 0; i < s.Size(); i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		resp, err = s.client.Invoke(ctx, s.address(), cmd)
		cancel()
		if err == nil {
			break
		}
		slog.Warn("name server failed", "attempt", i, "err", err)
	}
	if err != nil {
		return nil, fmt.Errorf("no name server answered: %w", err)
	}
	return resp, nil
}

// retrier is a client whose attempt count comes from a method: a retry loop, reported.
type retrier struct {
	hc       *http.Client
	attempts int
	url      string
}

func (r *retrier) maxAttempts() int { return r.attempts + 1 }

func (r *retrier) request(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
}

func (r *retrier) Get(ctx context.Context) (*http.Response, error) {
	var lastErr error
	for i := 0; i < r.maxAttempts(); i++ {
		req, err := r.request(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := r.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(time.Second) // related "walks.go:117: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
	}
	return nil, lastErr
}
