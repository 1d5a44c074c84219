package loops

import (
	"crypto/tls"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

// A broker client's connection host: connect reports with a bool whether a connection is up,
// after logging what failed. The pool's recovery loops call it until it says yes.

type brokerHost struct {
	addr   string
	tlsCfg *tls.Config
	mu     sync.Mutex
	conn   net.Conn
	log    *slog.Logger
}

func (h *brokerHost) connect() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conn != nil {
		return true
	}
	d := net.Dialer{Timeout: 10 * time.Second}
	raw, err := d.Dial("tcp", h.addr)
	if err != nil {
		h.log.Warn("dial broker", "addr", h.addr, "err", err)
		return false
	}
	if h.tlsCfg == nil {
		h.conn = raw
		return true
	}
	tc := tls.Client(raw, h.tlsCfg)
	if err := tc.Handshake(); err != nil {
		raw.Close()
		h.log.Warn("tls handshake", "addr", h.addr, "err", err)
		return false
	}
	h.conn = tc
	return true
}

type brokerPool struct {
	sleepOnError time.Duration
}

// ---- Reported: the recovery loop goes round on a failed connect for ever, with a fixed wait ----

func (p *brokerPool) recoverHost(h *brokerHost) {
	for { // related "reconnecthost.go:56: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		ok := h.connect()
		if !ok {
			if p.sleepOnError > 0 {
				time.Sleep(p.sleepOnError) // related "reconnecthost.go:56: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			}
			continue
		}
		break
	}
}

// ---- Not reported: capped, with a jittered wait ----

func (p *brokerPool) recoverHostCapped(h *brokerHost) bool {
	for attempt := 0; attempt < 5; attempt++ {
		if h.connect() {
			return true
		}
		time.Sleep(time.Duration(attempt+1)*time.Second + rand.N(time.Second))
	}
	return false
}
