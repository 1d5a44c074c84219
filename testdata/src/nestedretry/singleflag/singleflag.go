// Package singleflag is a database driver whose reconnect retries a failed connect with a
// jittered pause, unless its caller asks for a single attempt. The transaction loop, which
// retries the whole transaction, reconnects with a single attempt: the layers do not multiply
// (not reported). The query loop reconnects with retries inside its own retries (reported).
package singleflag

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"time"
)

var errShouldReconnect = errors.New("connection lost, reconnect")

// Conn is one connection to the server.
type Conn struct {
	nc     net.Conn
	closed bool
}

func (c *Conn) exec(ctx context.Context, q string) error {
	if dl, ok := ctx.Deadline(); ok {
		if err := c.nc.SetDeadline(dl); err != nil {
			return err
		}
	}
	if _, err := c.nc.Write([]byte(q)); err != nil {
		c.closed = true
		return fmt.Errorf("%w: %v", errShouldReconnect, err)
	}
	return nil
}

// Client keeps one connection, made anew when it breaks.
type Client struct {
	addr  string
	conn  *Conn
	until time.Duration
}

// reconnect dials the server, again after a jittered pause while the failure asks for it,
// up to ten times until the client's time is up; a single attempt when single is set.
func (c *Client) reconnect(ctx context.Context, single bool) error {
	deadline := time.Now().Add(c.until)
	for attempt := 1; ; attempt++ {
		d := net.Dialer{Timeout: 5 * time.Second}
		nc, err := d.DialContext(ctx, "tcp", c.addr)
		if err == nil {
			c.conn = &Conn{nc: nc}
			return nil
		}
		if single ||
			errors.Is(err, context.Canceled) ||
			errors.Is(err, context.DeadlineExceeded) ||
			attempt >= 10 ||
			time.Now().After(deadline) {
			return err
		}
		time.Sleep(time.Duration(10+rand.IntN(200)) * time.Millisecond)
	}
}

// Tx runs a transaction, again (up to three times) when the connection was lost or could not
// be made again.
func (c *Client) Tx(ctx context.Context, stmts []string) error {
	var err error
	for i := 0; i < 3; i++ {
		if c.conn == nil || c.conn.closed {
			if err = c.reconnect(ctx, true); err != nil {
				time.Sleep(time.Duration(50+rand.IntN(100)) * time.Millisecond)
				continue
			}
		}
		err = func() error {
			for _, s := range stmts {
				if err := c.conn.exec(ctx, s); err != nil {
					return err
				}
			}
			return nil
		}()
		if err == nil || !errors.Is(err, errShouldReconnect) {
			return err
		}
		time.Sleep(time.Duration(50+rand.IntN(100)) * time.Millisecond)
	}
	return err
}

// Query runs q, again (up to three times) when the connection was lost, reconnecting with
// the reconnect's own retries each time.
func (c *Client) Query(ctx context.Context, q string) error {
	var err error
	for i := 0; i < 3; i++ {
		if c.conn == nil || c.conn.closed {
			if err = c.reconnect(ctx, false); err != nil { // related "singleflag.go:97: outer retry loop" "singleflag.go:48: inner retry loop" // want `3 attempts around Client\.reconnect, which makes 10 each: up to 30 calls on transport errors; keep one layer`
				time.Sleep(time.Duration(50+rand.IntN(100)) * time.Millisecond)
				continue
			}
		}
		if err = c.conn.exec(ctx, q); err == nil || !errors.Is(err, errShouldReconnect) {
			return err
		}
		time.Sleep(time.Duration(50+rand.IntN(100)) * time.Millisecond)
	}
	return err
}
