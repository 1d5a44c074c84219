package loops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"
)

const maxReconnects = 5

// reconnectDelay doubles a base delay once per earlier attempt, up to a ceiling, in a loop of
// its own: a backoff, without jitter.
func reconnectDelay(attempt int) time.Duration {
	if attempt <= 0 {
		return 0
	}
	delay := 200 * time.Millisecond
	for i := 1; i < attempt; i++ {
		delay *= 2
		if delay >= 8*time.Second {
			return 8 * time.Second
		}
	}
	return delay
}

type relayConn struct {
	addr string
	conn net.Conn
}

// reconnect dials the relay again after a failure, backing off between attempts.
func (r *relayConn) reconnect(ctx context.Context) error {
	var lastErr error
	d := net.Dialer{Timeout: 5 * time.Second}
	for attempt := 0; attempt <= maxReconnects; attempt++ {
		if attempt > 0 {
			delay := reconnectDelay(attempt)
			slog.Debug("reconnecting", "attempt", attempt, "after", delay)
			time.Sleep(delay) // related "doubling.go:39: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
		conn, err := d.DialContext(ctx, "tcp", r.addr)
		if err == nil {
			r.conn = conn
			return nil
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
		lastErr = err
	}
	return fmt.Errorf("relay %s: %w", r.addr, lastErr)
}
