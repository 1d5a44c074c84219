package loops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// A server's accept loop that sleeps after a temporary Accept error, and turns away a
// connection over its per-address limit before going round.

type keepAliver interface {
	SetKeepAlive(on bool) error
	Close() error
}

type limitedServer struct {
	ln        net.Listener
	keepAlive bool
	maxPerIP  int
	log       *slog.Logger

	mu    sync.Mutex
	perIP map[string]int
}

// admit writes a refusal to a connection over its limit and closes it.
func (s *limitedServer) admit(c net.Conn) net.Conn {
	host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
	s.mu.Lock()
	n := s.perIP[host] + 1
	s.perIP[host] = n
	s.mu.Unlock()
	if n > s.maxPerIP {
		_, _ = c.Write([]byte("HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\n\r\n"))
		_ = c.Close()
		return nil
	}
	return c
}

// ---- Not reported: what it retries is a local Accept; the refusal is written after it worked ----

func (s *limitedServer) accept(lastRefusal *time.Time) (net.Conn, error) {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				s.log.Warn("accept timed out", "err", err)
				time.Sleep(time.Second)
				continue
			}
			if errors.Is(err, net.ErrClosed) {
				return nil, err
			}
			s.log.Error("accept failed", "err", err)
			return nil, err
		}
		if ka, ok := c.(keepAliver); ok && s.keepAlive {
			if err := ka.SetKeepAlive(true); err != nil {
				_ = ka.Close()
				return nil, err
			}
		}
		if s.maxPerIP > 0 {
			admitted := s.admit(c)
			if admitted == nil {
				if time.Since(*lastRefusal) > time.Minute {
					s.log.Warn("too many connections", "from", c.RemoteAddr())
					*lastRefusal = time.Now()
				}
				continue
			}
			c = admitted
		}
		return c, nil
	}
}

// ---- Reported: a local step first, then a remote call whose failure goes round after a fixed wait ----

type quota struct {
	mu   sync.Mutex
	left int
}

func (q *quota) take() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.left == 0 {
		return errors.New("quota exhausted")
	}
	q.left--
	return nil
}

type pusher struct {
	hc    *http.Client
	url   string
	quota *quota
	log   *slog.Logger
}

func (p *pusher) push(ctx context.Context, body []byte) error {
	for attempt := 0; attempt < 4; attempt++ {
		if err := p.quota.take(); err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, p.url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/octet-stream")
		resp, err := p.hc.Do(req)
		if err != nil {
			p.log.Warn("push failed", "url", p.url, "attempt", attempt, "err", err)
			time.Sleep(500 * time.Millisecond) // related "acceptlimit.go:112: retry loop" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("push: %s", resp.Status)
		}
		return nil
	}
	return errors.New("push: out of attempts")
}
