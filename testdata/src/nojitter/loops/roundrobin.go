package loops

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"
)

// A client of several comma-separated upstream addresses: nextUpstream hands them out in turn.

type upstreamClient struct {
	Addr        string
	DialTimeout time.Duration
	TLS         *tls.Config

	mu      sync.Mutex
	addrs   []string
	addrIdx uint32
	log     *slog.Logger
}

// nextUpstream returns the next address, round robin.
func (c *upstreamClient) nextUpstream() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addrs == nil {
		c.addrs = strings.Split(c.Addr, ",")
	}
	addr := c.addrs[0]
	if len(c.addrs) > 1 {
		addr = c.addrs[c.addrIdx%uint32(len(c.addrs))]
		c.addrIdx++
	}
	return addr
}

func (c *upstreamClient) dialUpstream(addr string, timeout time.Duration) (net.Conn, error) {
	d := net.Dialer{Timeout: timeout}
	if c.TLS != nil {
		return tls.DialWithDialer(&d, "tcp", addr, c.TLS)
	}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	return conn, nil
}

// ---- Not reported: each upstream once, in turn (the count is the number of addresses) ----

func (c *upstreamClient) DialAny() (net.Conn, error) {
	c.mu.Lock()
	n := len(c.addrs)
	c.mu.Unlock()
	if n == 0 {
		n = 1 // not split yet: one address
	}
	deadline := time.Now().Add(c.DialTimeout)
	var err error
	for n > 0 {
		addr := c.nextUpstream()
		var conn net.Conn
		conn, err = c.dialUpstream(addr, time.Until(deadline))
		if err == nil {
			return conn, nil
		}
		c.log.Warn("upstream unreachable, trying the next", "addr", addr, "err", err)
		if time.Since(deadline) >= 0 {
			break
		}
		n--
	}
	return nil, err
}

// ---- Reported: the same picker, but five rounds whatever the number of addresses ----

func (c *upstreamClient) DialFive() (net.Conn, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // related "roundrobin.go:85: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		addr := c.nextUpstream()
		var conn net.Conn
		conn, err = c.dialUpstream(addr, c.DialTimeout)
		if err == nil {
			return conn, nil
		}
		c.log.Warn("upstream unreachable", "addr", addr, "attempt", attempt, "err", err)
	}
	return nil, errors.Join(errors.New("no upstream reachable"), err)
}

// firstUpstream splits the addresses on first use and always returns the first: no cursor.
func (c *upstreamClient) firstUpstream() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addrs == nil {
		c.addrs = strings.Split(c.Addr, ",")
	}
	return c.addrs[0]
}

// ---- Reported: counted by the addresses, but the same address every round ----

func (c *upstreamClient) DialFirst() (net.Conn, error) {
	c.mu.Lock()
	n := len(c.addrs)
	c.mu.Unlock()
	var err error
	for n > 0 { // related "roundrobin.go:114: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		addr := c.firstUpstream()
		var conn net.Conn
		conn, err = c.dialUpstream(addr, c.DialTimeout)
		if err == nil {
			return conn, nil
		}
		c.log.Warn("upstream unreachable", "addr", addr, "err", err)
		n--
	}
	return nil, err
}
