// Package countptr is an RPC client whose request loop counts its retries through a helper
// that logs, waits and steps the counter it is handed by address. The loop is capped (and
// bounded by the caller's time): not "for ever". A loop whose helper only logs, and steps
// nothing, has no cap.
package countptr

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"
)

const requestRetries = 3

// Conn is one connection to a server.
type Conn struct{ nc net.Conn }

func (c *Conn) request(payload []byte, timeout time.Duration) ([]byte, error) {
	if err := c.nc.SetDeadline(time.Now().Add(timeout)); err != nil {
		return nil, err
	}
	if _, err := c.nc.Write(payload); err != nil {
		return nil, err
	}
	buf := make([]byte, 4096)
	n, err := c.nc.Read(buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// Client keeps the current connection, replaced by a reconnect loop elsewhere.
type Client struct {
	current *Conn
	running bool
}

func (c *Client) conn() *Conn {
	if !c.running {
		return nil
	}
	return c.current
}

func waitReconnect(timeout time.Duration, retries *int, payload []byte, err error) error {
	slog.Error("request failed", "size", len(payload), "retries", *retries, "err", err)
	time.Sleep(min(100*time.Millisecond, timeout/3))
	*retries++
	return err
}

func logFailure(payload []byte, err error) error {
	slog.Error("request failed", "size", len(payload), "err", err)
	return err
}

func nowMillis() int64 { return time.Now().UnixMilli() }

// Request sends payload, at most three times within timeout.
func (c *Client) Request(payload []byte, timeout time.Duration) ([]byte, error) {
	retries := 0
	start := nowMillis()
	var last error
	for retries < requestRetries && nowMillis() < start+timeout.Milliseconds() {
		conn := c.conn()
		if conn == nil {
			last = waitReconnect(timeout, &retries, payload, errors.New("client not connected")) // related "countptr.go:67: retry loop" "countptr.go:75: also waits without jitter" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		resp, err := conn.request(payload, timeout)
		if err != nil {
			last = waitReconnect(timeout, &retries, payload, err)
			continue
		}
		return resp, nil
	}
	if last == nil {
		last = errors.New("request failed")
	}
	return nil, fmt.Errorf("after %d tries: %w", retries, last)
}

// Notify sends payload until it goes through: its helper steps no counter.
func (c *Client) Notify(payload []byte) error {
	for { // related "countptr.go:88: retry loop" // want `retry loop goes round without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap`
		conn := c.conn()
		if conn == nil {
			_ = logFailure(payload, errors.New("client not connected"))
			continue
		}
		if _, err := conn.request(payload, time.Second); err != nil {
			_ = logFailure(payload, err)
			continue
		}
		return nil
	}
}
