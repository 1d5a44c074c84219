package loops

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"
)

// A broker connection pool that re-dials a dead connection until it is back. The dial helper
// answers with a bool alone: false after a failed dial (plain or TLS, whichever the host is
// configured for), true when the connection is up, also when another goroutine re-dialled it
// first (checked again under the lock).

type amqpTLS struct {
	Enabled    bool
	CAFile     string
	ServerName string
}

func amqpTLSConfig(t *amqpTLS) (*tls.Config, error) {
	pem, err := os.ReadFile(t.CAFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("no certificates in " + t.CAFile)
	}
	return &tls.Config{RootCAs: pool, ServerName: t.ServerName}, nil
}

type amqpHost struct {
	id      uint64
	addr    string
	tls     *amqpTLS
	timeout time.Duration

	mu     sync.Mutex
	conn   net.Conn
	closed chan struct{}
}

func (h *amqpHost) alive() bool {
	if h.conn == nil {
		return false
	}
	select {
	case <-h.closed:
		return false
	default:
		return true
	}
}

func (h *amqpHost) redial(onError func(error)) bool {
	if h.alive() {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.alive() {
		return true
	}
	var (
		conn net.Conn
		err  error
	)
	d := &net.Dialer{Timeout: h.timeout, KeepAlive: 30 * time.Second}
	if h.tls != nil && h.tls.Enabled {
		cfg, cerr := amqpTLSConfig(h.tls)
		if cerr != nil {
			if onError != nil {
				onError(cerr)
			}
			return false
		}
		conn, err = tls.DialWithDialer(d, "tcp", h.addr, cfg)
	} else {
		conn, err = d.Dial("tcp", h.addr)
	}
	if err != nil {
		if onError != nil {
			onError(err)
		}
		return false
	}
	h.conn = conn
	h.closed = make(chan struct{})
	return true
}

type amqpPool struct {
	errorPause time.Duration
	onError    func(error)

	mu      sync.Mutex
	flagged map[uint64]bool
}

func (p *amqpPool) unflag(id uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.flagged, id)
}

// recover stays until the host is connected again, pausing a fixed interval after each
// failed dial: reported twice (no cap and no deadline; a fixed wait).
func (p *amqpPool) recover(h *amqpHost) {
	for { // related "poolrecover.go:114: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		if ok := h.redial(p.onError); !ok {
			if p.errorPause > 0 {
				time.Sleep(p.errorPause) // related "poolrecover.go:114: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			}
			continue
		}
		break
	}
	slog.Info("broker connection recovered", "host", h.addr)
	p.unflag(h.id)
}
