// Package connswap is an RPC client whose primary connection is replaced by a reconnect loop
// (with a jittered backoff) when it dies. A call that fails because the connection died waits
// for the replacement before it sends again: the reconnect loop paces it, through a channel it
// closes. A call that sends again at once, on the same dead connection, hammers it.
package connswap

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

var errConnDead = errors.New("connection is dead")

// Conn is one connection to the server.
type Conn struct {
	nc   net.Conn
	dead bool
}

// Invoke sends a request and reads the answer.
func (c *Conn) Invoke(ctx context.Context, req, resp []byte) error {
	if c.dead {
		return errConnDead
	}
	if dl, ok := ctx.Deadline(); ok {
		if err := c.nc.SetDeadline(dl); err != nil {
			return err
		}
	}
	if _, err := c.nc.Write(req); err != nil {
		c.dead = true
		return fmt.Errorf("%w: %v", errConnDead, err)
	}
	if _, err := c.nc.Read(resp); err != nil {
		c.dead = true
		return fmt.Errorf("%w: %v", errConnDead, err)
	}
	return nil
}

// Client keeps the primary connection.
type Client struct {
	addr        string
	mu          sync.Mutex
	conn        *Conn
	connChanged chan struct{}
	ctx         context.Context
}

// New returns a client of addr; Run keeps its connection.
func New(ctx context.Context, addr string) *Client {
	return &Client{addr: addr, connChanged: make(chan struct{}), ctx: ctx}
}

func (c *Client) replace(conn *Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn = conn
	close(c.connChanged)
	c.connChanged = make(chan struct{})
}

// Run dials the server again whenever the connection dies, backing off with jitter.
func (c *Client) Run(ctx context.Context) error {
	backoff := 100 * time.Millisecond
	for {
		var d net.Dialer
		nc, err := d.DialContext(ctx, "tcp", c.addr)
		if err != nil {
			log.Printf("dial %s: %v", c.addr, err)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff/2 + rand.N(backoff)):
			}
			backoff = min(2*backoff, 5*time.Second)
			continue
		}
		backoff = 100 * time.Millisecond
		conn := &Conn{nc: nc}
		c.replace(conn)
		for !conn.dead {
			select {
			case <-ctx.Done():
				return nc.Close()
			case <-time.After(time.Second):
			}
		}
	}
}

// ---- Not reported: a dead connection's call waits for the reconnect loop's replacement ----

// Invoke sends req on the primary connection, again on the next one when it dies.
func (c *Client) Invoke(ctx context.Context, req, resp []byte) error {
	for attempt := 1; ; attempt++ {
		c.mu.Lock()
		conn, changed := c.conn, c.connChanged
		c.mu.Unlock()
		if conn != nil {
			err := conn.Invoke(ctx, req, resp)
			if err == nil || !errors.Is(err, errConnDead) {
				return err
			}
			log.Printf("attempt %d: %v; waiting for a new connection", attempt, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for reconnect: %w", ctx.Err())
		case <-c.ctx.Done():
			return errors.New("client closed")
		case <-changed:
		}
	}
}

// ---- Reported: it sends again at once ----

// InvokeAgain sends req again at once when the connection is dead.
func (c *Client) InvokeAgain(ctx context.Context, req, resp []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // related "connswap.go:128: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		c.mu.Lock()
		conn := c.conn
		c.mu.Unlock()
		if err = conn.Invoke(ctx, req, resp); err == nil || !errors.Is(err, errConnDead) {
			return err
		}
		log.Printf("attempt %d: %v", attempt+1, err)
	}
	return err
}
