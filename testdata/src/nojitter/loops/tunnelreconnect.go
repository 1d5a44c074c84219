package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/jpillora/backoff"
)

// A tunnel agent that keeps one connection to its server and connects again after it drops,
// waiting what a jpillora/backoff Backoff hands out. That library randomises its delays only
// when the Backoff's Jitter field is set; a Backoff made without it grows 100ms, 200ms, 400ms...
// the same for every agent, so agents cut off by one server restart reconnect in waves.

type tunnelConfig struct {
	Server       string
	MaxRetries   int // < 0: retry for ever
	MaxRetryWait time.Duration
}

type tunnelAgent struct {
	cfg    tunnelConfig
	dialer net.Dialer
}

// serve runs one connection until it fails or the server closes it; connected says whether
// the handshake succeeded.
func (a *tunnelAgent) serve(ctx context.Context) (connected bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := a.dialer.DialContext(ctx, "tcp", a.cfg.Server)
	if err != nil {
		return false, fmt.Errorf("dial %s: %w", a.cfg.Server, err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("HELLO\n")); err != nil {
		return false, err
	}
	buf := make([]byte, 4096)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return true, err
		}
		slog.Debug("tunnel data", "bytes", n)
	}
}

// connectLoop reconnects until ctx ends or the attempts run out, waiting an exponential delay
// without jitter.
func (a *tunnelAgent) connectLoop(ctx context.Context) error {
	b := &backoff.Backoff{Max: a.cfg.MaxRetryWait}
	for {
		connected, err := a.serve(ctx)
		if connected {
			b.Reset()
		}
		attempt := int(b.Attempt())
		if err != nil && !errors.Is(err, io.EOF) {
			slog.Warn("tunnel connection failed", "server", a.cfg.Server, "attempt", attempt, "err", err)
		}
		if a.cfg.MaxRetries >= 0 && attempt >= a.cfg.MaxRetries {
			slog.Info("giving up", "server", a.cfg.Server)
			return err
		}
		d := b.Duration()
		slog.Info("reconnecting", "in", d)
		select {
		case <-time.After(d): // related "tunnelreconnect.go:58: long-running loop" // want `long-running loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		case <-ctx.Done():
			return nil
		}
	}
}

// connectLoopJittered is the same loop with the library's jitter turned on: not reported.
func (a *tunnelAgent) connectLoopJittered(ctx context.Context) error {
	b := &backoff.Backoff{Min: 200 * time.Millisecond, Max: a.cfg.MaxRetryWait, Jitter: true}
	for {
		connected, err := a.serve(ctx)
		if connected {
			b.Reset()
		}
		if err != nil && !errors.Is(err, io.EOF) {
			slog.Warn("tunnel connection failed", "server", a.cfg.Server, "err", err)
		}
		select {
		case <-time.After(b.Duration()):
		case <-ctx.Done():
			return nil
		}
	}
}
