package loops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand"
	"net"
	"time"
)

// A tunnel supervisor keeps its first connection up: it calls Serve again after a connection
// error of a kind worth retrying. Serve backs off before it returns such an error (it waits a
// jittered, growing timer after the connection failed, then returns): the wait between two
// connections is Serve's, on its way out, and the loop needs none of its own. A server that
// returns at once is the loop's to wait for: reported.

var errNoAddress = errors.New("no edge address left")

type dialError struct{ cause error }

func (e dialError) Error() string { return "dial edge: " + e.cause.Error() }

type edgeBackoff struct {
	retries  int
	max      int
	baseTime time.Duration
}

// timer returns a channel that fires after a jittered delay that doubles with each retry.
func (b *edgeBackoff) timer() <-chan time.Time {
	d := time.Duration(rand.Int63n(int64(b.baseTime << b.retries)))
	b.retries++
	return time.After(d)
}

func (b *edgeBackoff) more() bool { return b.retries < b.max }

type edgeServer struct {
	addrs   []string
	dialer  net.Dialer
	backoff *edgeBackoff
	log     *slog.Logger
}

func (s *edgeServer) serveConn(ctx context.Context, addr string) error {
	conn, err := s.dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return dialError{err}
	}
	defer conn.Close()
	buf := make([]byte, 1024)
	for {
		if _, err := conn.Read(buf); err != nil {
			return fmt.Errorf("edge connection: %w", err)
		}
	}
}

// Serve runs one connection and, when it fails, waits the backoff before returning the error.
func (s *edgeServer) Serve(ctx context.Context, index int) error {
	if index >= len(s.addrs) {
		return errNoAddress
	}
	err := s.serveConn(ctx, s.addrs[index])
	if !s.backoff.more() {
		return err
	}
	s.log.Info("retrying connection", "index", index, "err", err)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-s.backoff.timer():
		return err
	}
}

// ServeOnce runs one connection and returns its error at once.
func (s *edgeServer) ServeOnce(ctx context.Context, index int) error {
	if index >= len(s.addrs) {
		return errNoAddress
	}
	return s.serveConn(ctx, s.addrs[index])
}

// TunnelServer serves one connection; the supervisor is given the edge server through it.
type TunnelServer interface {
	Serve(ctx context.Context, index int) error
}

// keepFirstTunnel restarts the first connection after the errors worth retrying: not reported,
// Serve (the package's one TunnelServer) waits before it returns.
func keepFirstTunnel(ctx context.Context, srv TunnelServer, log *slog.Logger) error {
	for {
		err := srv.Serve(ctx, 0)
		if ctx.Err() != nil || err == nil {
			return err
		}
		var de dialError
		switch {
		case errors.As(err, &de):
			log.Warn("edge dial failed", "err", err)
		case errors.Is(err, errNoAddress):
			return err
		default:
			return fmt.Errorf("first tunnel: %w", err)
		}
	}
}

// keepFirstTunnelOnce does the same with a server that does not wait.
func keepFirstTunnelOnce(ctx context.Context, s *edgeServer) error {
	for { // related "tunnelsupervisor.go:114: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		err := s.ServeOnce(ctx, 0)
		if ctx.Err() != nil || err == nil {
			return err
		}
		var de dialError
		switch {
		case errors.As(err, &de):
			s.log.Warn("edge dial failed", "err", err)
		case errors.Is(err, errNoAddress):
			return err
		default:
			return fmt.Errorf("first tunnel: %w", err)
		}
	}
}
