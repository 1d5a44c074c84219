package loops

import (
	"bufio"
	"context"
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"
	"time"
)

// A feed subscriber: it dials the feed, reads lines until the connection ends, and dials again
// until its context is done.

type feedSubscriber struct {
	addr   string
	dialer net.Dialer
	log    *slog.Logger
	out    chan<- string
}

func (s *feedSubscriber) read(ctx context.Context, conn net.Conn) error {
	sc := bufio.NewScanner(conn)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		select {
		case s.out <- line:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return sc.Err()
}

// ---- Reported: the dial fails and the loop dials again at once ----

func (s *feedSubscriber) Run(ctx context.Context) {
	for { // related "redial.go:42: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		select {
		case <-ctx.Done():
			return
		default:
		}
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		conn, err := s.dialer.DialContext(dctx, "tcp", s.addr)
		cancel()
		if err != nil {
			s.log.Error("dial feed", "addr", s.addr, "err", err)
			continue
		}
		err = s.read(ctx, conn)
		conn.Close()
		s.log.Warn("feed connection ended", "addr", s.addr, "err", err)
	}
}

// ---- Not reported: a jittered wait after a failed dial ----

func (s *feedSubscriber) RunPaced(ctx context.Context) {
	for {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		conn, err := s.dialer.DialContext(dctx, "tcp", s.addr)
		cancel()
		if err != nil {
			s.log.Error("dial feed", "addr", s.addr, "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second + rand.N(time.Second)):
			}
			continue
		}
		err = s.read(ctx, conn)
		conn.Close()
		s.log.Warn("feed connection ended", "addr", s.addr, "err", err)
	}
}

// ---- Not reported: it waits for the next tick every round, failed or not ----

func (s *feedSubscriber) RunTicked(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		conn, err := s.dialer.DialContext(ctx, "tcp", s.addr)
		if err != nil {
			s.log.Error("dial feed", "addr", s.addr, "err", err)
			continue
		}
		err = s.read(ctx, conn)
		conn.Close()
		s.log.Warn("feed connection ended", "addr", s.addr, "err", err)
	}
}

// ---- Not reported: a sidecar on this machine ----

func (s *feedSubscriber) RunLocal(ctx context.Context) {
	for {
		if ctx.Err() != nil {
			return
		}
		conn, err := s.dialer.DialContext(ctx, "tcp", "127.0.0.1:7001")
		if err != nil {
			s.log.Error("dial sidecar", "err", err)
			continue
		}
		err = s.read(ctx, conn)
		conn.Close()
		s.log.Warn("sidecar connection ended", "err", err)
	}
}
