// Package upstreams forwards DNS queries to a list of upstream servers.
package upstreams

import (
	"errors"
	"log"
	"net"
	"sync"
	"time"
)

// Upstreams is the list of servers of one zone and the one in use.
type Upstreams struct {
	mu      sync.Mutex
	servers []string
	current int
}

func (u *Upstreams) Len() int { return len(u.servers) }

func (u *Upstreams) Server() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.servers[u.current%len(u.servers)]
}

// SwitchIf moves on to the next server when server is still the one in use, and returns the
// one in use.
func (u *Upstreams) SwitchIf(server string) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.servers[u.current%len(u.servers)] == server {
		u.current++
	}
	return u.servers[u.current%len(u.servers)]
}

type Forwarder struct {
	ups     *Upstreams
	timeout time.Duration
}

func (f *Forwarder) exchange(c net.Conn, req []byte) ([]byte, error) {
	if _, err := c.Write(req); err != nil {
		return nil, err
	}
	buf := make([]byte, 4096)
	n, err := c.Read(buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// ---- Not reported: each failure moves on to the next server, each tried once ----

// Forward sends the query to the server in use, and to the next one when it fails.
func (f *Forwarder) Forward(req []byte) ([]byte, error) {
	var resp []byte
	var err error
	server := f.ups.Server()
	for range f.ups.Len() {
		var c net.Conn
		c, err = net.DialTimeout("udp", server, f.timeout)
		if err != nil {
			next := f.ups.SwitchIf(server)
			log.Printf("dns: connect to %s failed: %v, next server: %s", server, err, next)
			server = next
			continue
		}
		c.SetDeadline(time.Now().Add(f.timeout))
		resp, err = f.exchange(c, req)
		c.Close()
		if err == nil {
			return resp, nil
		}
		next := f.ups.SwitchIf(server)
		log.Printf("dns: exchange with %s failed: %v, next server: %s", server, err, next)
		server = next
	}
	return nil, errors.Join(errors.New("dns: no upstream answered"), err)
}

// ForwardTraced does the same and says which server answered: its named results live in
// memory, since the deferred log reads them.
func (f *Forwarder) ForwardTraced(req []byte) (server string, resp []byte, err error) {
	defer func() {
		if err != nil {
			log.Printf("dns: query failed, last server %s: %v", server, err)
		}
	}()
	server = f.ups.Server()
	for range f.ups.Len() {
		var c net.Conn
		c, err = net.DialTimeout("tcp", server, f.timeout)
		if err != nil {
			server = f.ups.SwitchIf(server)
			continue
		}
		c.SetDeadline(time.Now().Add(f.timeout))
		resp, err = f.exchange(c, req)
		c.Close()
		if err == nil {
			return server, resp, nil
		}
		server = f.ups.SwitchIf(server)
	}
	return server, nil, err
}

// ---- Reported: the same server asked again at once ----

// ForwardPinned asks the server in use three times in a row.
func (f *Forwarder) ForwardPinned(req []byte) ([]byte, error) {
	var err error
	server := f.ups.Server()
	for range 3 { // related "upstreams.go:117: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		var c net.Conn
		c, err = net.DialTimeout("udp", server, f.timeout)
		if err != nil {
			log.Printf("dns: connect to %s failed: %v", server, err)
			continue
		}
		c.SetDeadline(time.Now().Add(f.timeout))
		resp, xerr := f.exchange(c, req)
		c.Close()
		if xerr == nil {
			return resp, nil
		}
		err = xerr
		log.Printf("dns: exchange with %s failed: %v", server, err)
	}
	return nil, err
}

type tokenSource interface{ Token() string }

func send(server, tok string, event []byte, timeout time.Duration) error {
	c, err := net.DialTimeout("tcp", server, timeout)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	_, err = c.Write(append([]byte(tok+"\n"), event...))
	return err
}

// Notify sends an event with a fresh token each round, to the same server, at once: the token
// is fetched again, the target does not change.
func Notify(src tokenSource, server string, event []byte, timeout time.Duration) error {
	tok := src.Token()
	for { // related "upstreams.go:153: retry loop" // want `retry loop goes round without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap`
		err := send(server, tok, event, timeout)
		if err == nil {
			return nil
		}
		log.Printf("notify %s: %v", server, err)
		tok = src.Token()
	}
}
