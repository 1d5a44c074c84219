// Package delayfield is a coordination-service client whose retry loop waits through a
// function kept in a field (so tests can turn the wait off), which its constructor fills with
// a waiter that a function of the package makes. The session's waiter grows and jitters (not
// reported); the watcher's sleeps a fixed second (reported).
package delayfield

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

var errClosed = errors.New("connection closed")

// Conn is one connection to the ensemble.
type Conn struct{ nc net.Conn }

func (c *Conn) do(ctx context.Context, op []byte) error {
	if dl, ok := ctx.Deadline(); ok {
		if err := c.nc.SetDeadline(dl); err != nil {
			return err
		}
	}
	if _, err := c.nc.Write(op); err != nil {
		return errClosed
	}
	return nil
}

// Session runs operations, reconnecting as needed.
type Session struct {
	addr       string
	maxRetries int
	mu         sync.Mutex
	conn       *Conn
	// retryDelay is a field so that tests can turn the wait off.
	retryDelay func(attempt int)
}

// NewSession returns a session with the ensemble at addr.
func NewSession(addr string) *Session {
	return &Session{addr: addr, maxRetries: 5, retryDelay: delayFlooredCappedLn(1, 30)}
}

// delayFlooredCappedLn waits ln(attempt+1) seconds, at least floor and at most cap, plus up to
// four seconds at random.
func delayFlooredCappedLn(floor, cap int) func(int) {
	return func(attempt int) {
		s := int(math.Ceil(math.Log(float64(attempt + 1))))
		s = min(max(s, floor), cap)
		time.Sleep(time.Duration(s)*time.Second + rand.N(4*time.Second))
	}
}

func (s *Session) connection(ctx context.Context) (*Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		return s.conn, nil
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return nil, err
	}
	s.conn = &Conn{nc: nc}
	return s.conn, nil
}

// Do runs op, up to maxRetries times.
func (s *Session) Do(ctx context.Context, op []byte) error {
	var errs []error
	for i := 0; i < s.maxRetries; i++ {
		if i > 0 {
			s.retryDelay(i)
		}
		conn, err := s.connection(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("try %d: connect: %w", i+1, err))
			continue
		}
		if err := conn.do(ctx, op); err != nil {
			if errors.Is(err, errClosed) {
				s.mu.Lock()
				s.conn = nil
				s.mu.Unlock()
			}
			errs = append(errs, fmt.Errorf("try %d: %w", i+1, err))
			continue
		}
		return nil
	}
	return errors.Join(errs...)
}

// Watcher re-arms watches, waiting through a field filled with a fixed sleep.
type Watcher struct {
	session    *Session
	retryDelay func(int)
}

// NewWatcher returns a watcher over s.
func NewWatcher(s *Session) *Watcher {
	return &Watcher{session: s, retryDelay: delayFixed(time.Second)}
}

func delayFixed(d time.Duration) func(int) {
	return func(int) { time.Sleep(d) }
}

// Arm sets a watch, up to five tries.
func (w *Watcher) Arm(ctx context.Context, path string) error {
	var err error
	for i := 0; i < 5; i++ {
		if i > 0 {
			w.retryDelay(i) // related "delayfield.go:119: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		}
		var conn *Conn
		if conn, err = w.session.connection(ctx); err != nil {
			continue
		}
		if err = conn.do(ctx, []byte("watch "+path)); err == nil {
			return nil
		}
	}
	return err
}
