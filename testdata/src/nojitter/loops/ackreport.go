package loops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"
)

// A job worker reports each job's result back to its server, staying in a loop until the
// report goes through. Its manager closes done (a chan interface{}) on shutdown.

type jobServer struct {
	mu   sync.Mutex
	conn net.Conn
	addr string
}

func (s *jobServer) send(ctx context.Context, verb, jid string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		d := net.Dialer{Timeout: 5 * time.Second}
		c, err := d.DialContext(ctx, "tcp", s.addr)
		if err != nil {
			return err
		}
		s.conn = c
	}
	if err := s.conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(s.conn, "%s %s\r\n", verb, jid); err != nil {
		s.conn.Close()
		s.conn = nil
		return err
	}
	return nil
}

type jobManager struct {
	server   *jobServer
	done     chan interface{}
	results  chan interface{}
	stopOnce sync.Once
}

func newJobManager(addr string) *jobManager {
	return &jobManager{server: &jobServer{addr: addr}, done: make(chan interface{}), results: make(chan interface{}, 16)}
}

// Shutdown closes done: every loop selecting on it ends.
func (m *jobManager) Shutdown() {
	m.stopOnce.Do(func() { close(m.done) })
}

func (m *jobManager) publish(v interface{}) {
	select {
	case m.results <- v:
	default:
	}
}

func verbFor(jobErr error) string {
	if jobErr != nil {
		return "FAIL"
	}
	return "ACK"
}

// report gives up 30 seconds after it starts (a timer made before the loop): an overall
// deadline, and the backoff's lack of jitter is the only finding.
func (m *jobManager) report(jid string, jobErr error) error {
	until := time.After(30 * time.Second)
	pause := time.Second
	for {
		err := m.server.send(context.Background(), verbFor(jobErr), jid)
		if err == nil {
			return nil
		}
		select {
		case <-until:
			slog.Error("could not report result", "jid", jid, "err", err)
			return errors.New("result of " + jid + " not reported")
		case <-time.After(pause): // related "ackreport.go:79: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
			pause *= 2
		}
	}
}

// reportOnShutdown stays until shutdown (done, closed by Shutdown): it has no cap, but the
// program can end it, as a context would; only the fixed wait is reported.
func (m *jobManager) reportOnShutdown(jid string) {
	for {
		err := m.server.send(context.Background(), "ACK", jid)
		if err == nil {
			return
		}
		select {
		case <-m.done:
			return
		case <-time.After(2 * time.Second): // related "ackreport.go:97: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
		}
	}
}

// reportUntilNews goes round until a result is published on results, which nothing closes:
// a message can end it, but nothing guarantees one; reported as endless.
func (m *jobManager) reportUntilNews(jid string) {
	for { // related "ackreport.go:113: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		err := m.server.send(context.Background(), "ACK", jid)
		if err == nil {
			return
		}
		select {
		case <-m.results:
			return
		case <-time.After(2 * time.Second): // related "ackreport.go:113: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
		}
	}
}
