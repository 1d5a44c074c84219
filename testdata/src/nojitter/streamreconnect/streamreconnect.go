// Package streamreconnect keeps a market-data stream connected: a goroutine waits for a signal
// that the connection dropped, builds a jpillora backoff and hands it to the loop that
// reconnects. The backoff is made by the caller, so its settings are the caller's.
package streamreconnect

import (
	"errors"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jpillora/backoff"
)

// Conn is a stream connection.
type Conn interface {
	Restore() (Conn, error)
	Close() error
}

type stream struct {
	mu         sync.Mutex
	conn       Conn
	reconnects int64
	signal     chan struct{}
	ready      chan struct{}
	logger     *log.Logger
}

// ---- Reported: the caller's backoff has jitter off ----

func (s *stream) handleReconnect() {
	for range s.signal {
		s.logger.Print("reconnect: signal received")
		b := &backoff.Backoff{
			Min:    100 * time.Millisecond,
			Max:    10 * time.Second,
			Factor: 1.8,
			Jitter: false,
		}
		conn := s.reconnect(b)
		b.Reset()
		s.mu.Lock()
		s.conn = conn
		s.mu.Unlock()
		s.ready <- struct{}{}
	}
}

func (s *stream) reconnect(b *backoff.Backoff) Conn {
	for { // related "streamreconnect.go:52: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		atomic.AddInt64(&s.reconnects, 1)
		s.mu.Lock()
		old := s.conn
		s.mu.Unlock()
		conn, err := old.Restore()
		if err != nil {
			delay := b.Duration()
			s.logger.Printf("reconnect failed (%v), next try in %s", err, delay.Round(time.Millisecond))
			time.Sleep(delay) // related "streamreconnect.go:52: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
			continue
		}
		return conn
	}
}

// ---- Not reported for jitter: the only caller turns it on (for ever, reported) ----

type feed struct {
	conn   Conn
	signal chan struct{}
	logger *log.Logger
}

func (f *feed) watch() {
	for range f.signal {
		b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second, Jitter: true}
		f.conn = f.redial(b)
	}
}

func (f *feed) redial(b *backoff.Backoff) Conn {
	for { // related "streamreconnect.go:84: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		conn, err := f.conn.Restore()
		if err == nil {
			return conn
		}
		if errors.Is(err, errClosed) {
			return nil
		}
		f.logger.Printf("redial: %v", err)
		time.Sleep(b.Duration())
	}
}

var errClosed = errors.New("closed")

// ---- Not reported for jitter: an exported function's backoff comes from its users (for ever, reported) ----

// Redial reconnects with the backoff its caller gives.
func Redial(c Conn, b *backoff.Backoff, logger *log.Logger) Conn {
	for { // related "streamreconnect.go:103: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		conn, err := c.Restore()
		if err == nil {
			return conn
		}
		if errors.Is(err, errClosed) {
			return nil
		}
		logger.Printf("redial: %v", err)
		time.Sleep(b.Duration())
	}
}

// ---- Not reported: the function turns jitter on itself ----

type quotes struct {
	conn   Conn
	signal chan struct{}
	logger *log.Logger
}

func (q *quotes) watch() {
	for range q.signal {
		b := &backoff.Backoff{Min: 200 * time.Millisecond, Max: 5 * time.Second}
		q.conn = q.resubscribe(b)
	}
}

func (q *quotes) resubscribe(b *backoff.Backoff) Conn {
	b.Jitter = true
	for attempt := 0; attempt < 10; attempt++ {
		conn, err := q.conn.Restore()
		if err == nil {
			return conn
		}
		q.logger.Printf("resubscribe attempt %d: %v", attempt+1, err)
		time.Sleep(b.Duration())
	}
	return nil
}

// ---- Not reported: the function is also used as a method value, with a backoff that jitters ----

type orders struct {
	conn   Conn
	redial func(*backoff.Backoff) Conn
	logger *log.Logger
}

func newOrders(c Conn, logger *log.Logger) *orders {
	o := &orders{conn: c, logger: logger}
	o.redial = o.reconnect
	return o
}

func (o *orders) recover() {
	o.conn = o.redial(&backoff.Backoff{Min: time.Second, Max: time.Minute, Jitter: true})
}

func (o *orders) reset() {
	o.conn = o.reconnect(&backoff.Backoff{Min: time.Second, Max: time.Minute})
}

func (o *orders) reconnect(b *backoff.Backoff) Conn {
	for attempt := 0; attempt < 10; attempt++ {
		conn, err := o.conn.Restore()
		if err == nil {
			return conn
		}
		o.logger.Printf("reconnect attempt %d: %v", attempt+1, err)
		time.Sleep(b.Duration())
	}
	return nil
}
