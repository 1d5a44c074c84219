package loops

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"sync"
	"time"
)

// An rpcConn is a client's connection to a JSON-RPC server: it writes one message per call,
// and dials again once a write failed.
type rpcConn struct {
	mu   sync.Mutex
	addr string
	conn net.Conn
	enc  *json.Encoder
}

var errRPCClosed = errors.New("rpc client closed")

func (c *rpcConn) reconnect(ctx context.Context) error {
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return err
	}
	c.conn, c.enc = conn, json.NewEncoder(conn)
	return nil
}

// writeMsg writes msg; when the write fails it drops the connection and, the first time only,
// writes again over a new one. Once more on a fresh connection: not reported.
func (c *rpcConn) writeMsg(ctx context.Context, msg any, retry bool) error {
	if c.conn == nil {
		if err := c.reconnect(ctx); err != nil {
			return err
		}
	}
	if deadline, ok := ctx.Deadline(); ok {
		c.conn.SetWriteDeadline(deadline)
	}
	err := c.enc.Encode(msg)
	if err != nil {
		c.conn.Close()
		c.conn = nil
		if !retry {
			return c.writeMsg(ctx, msg, true)
		}
	}
	return err
}

// Call sends one request.
func (c *rpcConn) Call(ctx context.Context, method string, params any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addr == "" {
		return errRPCClosed
	}
	return c.writeMsg(ctx, map[string]any{"jsonrpc": "2.0", "method": method, "params": params}, false)
}

// sendTwice writes msg and, when that fails, writes it once more at once over the same
// connection: nothing changed, a failing server gets the same message straight back.
func (c *rpcConn) sendTwice(ctx context.Context, msg any, retry bool) error { // related "rewrite.go:67: retrying recursion" // want `retrying function sendTwice goes round without waiting, so it hammers a failing dependency; wait with jitter`
	if deadline, ok := ctx.Deadline(); ok {
		c.conn.SetWriteDeadline(deadline)
	}
	if err := c.enc.Encode(msg); err != nil {
		if !retry {
			return c.sendTwice(ctx, msg, true)
		}
		return err
	}
	return nil
}
