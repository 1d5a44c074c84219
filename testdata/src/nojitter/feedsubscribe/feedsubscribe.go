// Package feedsubscribe keeps subscriptions to a remote quote feed open. Each subscription runs
// in a goroutine that dials the feed, sends its subscribe line and reads quotes until the
// connection breaks; then it jumps back to a label that waits before it dials again. The wait
// at the label serves every failure that jumps there (dial, send, read), so it lies on every way
// from a failure back to the next dial, though no failure's own branch holds it.
package feedsubscribe

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"math/rand/v2"
)

// Quote is one line of the feed.
type Quote struct {
	Symbol string
	Price  string
}

// Config holds a feed's address and the pause between subscriptions.
type Config struct {
	Name       string
	Addr       string
	RetryTimer time.Duration
	DialTimout time.Duration
}

// Feed is a remote quote feed and its open subscriptions.
type Feed struct {
	cfg    Config
	logger *slog.Logger

	mu      sync.Mutex
	conns   map[string]net.Conn
	cancels map[string]context.CancelFunc
}

// New returns a feed for cfg.
func New(cfg Config, logger *slog.Logger) *Feed {
	return &Feed{cfg: cfg, logger: logger, conns: make(map[string]net.Conn), cancels: make(map[string]context.CancelFunc)}
}

// ---- Reported: the wait at the label is the same length for every subscriber ----

// SubscribeChan subscribes to symbols and returns the quotes and the errors on two channels,
// until ctx ends.
func (f *Feed) SubscribeChan(ctx context.Context, name string, symbols []string) (<-chan Quote, <-chan error) {
	quotes := make(chan Quote)
	errs := make(chan error, 1)
	go func() {
		defer close(quotes)
		defer close(errs)
		var conn net.Conn
		var sctx context.Context
		var cancel context.CancelFunc
		var err error
		goto DIAL
	RETRY:
		{
			timer := time.NewTimer(f.cfg.RetryTimer) // related "feedsubscribe.go:75: long-running loop" // want `long-running loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			select {
			case <-ctx.Done():
				timer.Stop()
				return
			case <-timer.C:
			}
		}
	DIAL:
		select {
		case <-ctx.Done():
			return
		default:
			sctx, cancel = context.WithCancel(ctx)
			d := net.Dialer{Timeout: f.cfg.DialTimout}
			conn, err = d.DialContext(sctx, "tcp", f.cfg.Addr)
			if err != nil {
				errs <- fmt.Errorf("feed %s: dial: %w (retry in %s)", f.cfg.Name, err, f.cfg.RetryTimer)
				cancel()
				goto RETRY
			}
		}
		f.mu.Lock()
		if old, ok := f.cancels[name]; ok {
			old()
		}
		f.conns[name] = conn
		f.cancels[name] = cancel
		f.mu.Unlock()

		if _, err = fmt.Fprintf(conn, "SUB %s\n", strings.Join(symbols, ",")); err != nil {
			errs <- fmt.Errorf("feed %s: subscribe: %w", f.cfg.Name, err)
			conn.Close()
			cancel()
			goto RETRY
		}
		f.logger.Info("subscribed", "feed", f.cfg.Name, "subscription", name, "symbols", len(symbols))

		for r := bufio.NewReader(conn); ; {
			if ctx.Err() != nil {
				errs <- ctx.Err()
				conn.Close()
				cancel()
				goto RETRY
			}
			line, err := r.ReadString('\n')
			if err != nil {
				errs <- fmt.Errorf("feed %s: read: %w", f.cfg.Name, err)
				conn.Close()
				cancel()
				goto RETRY
			}
			symbol, price, ok := strings.Cut(strings.TrimSpace(line), " ")
			if !ok {
				f.logger.Warn("malformed quote", "line", line)
				continue
			}
			select {
			case quotes <- Quote{Symbol: symbol, Price: price}:
			case <-ctx.Done():
				conn.Close()
				cancel()
				return
			}
		}
	}()
	return quotes, errs
}

// ---- Not reported: the wait at the label is jittered ----

// Follow is SubscribeChan with a jittered wait before each new dial.
func (f *Feed) Follow(ctx context.Context, symbols []string, out chan<- Quote) error {
	var conn net.Conn
	var err error
	goto DIAL
RETRY:
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(f.cfg.RetryTimer/2 + rand.N(f.cfg.RetryTimer/2)):
	}
DIAL:
	conn, err = (&net.Dialer{Timeout: f.cfg.DialTimout}).DialContext(ctx, "tcp", f.cfg.Addr)
	if err != nil {
		f.logger.Warn("dial failed", "feed", f.cfg.Name, "err", err)
		goto RETRY
	}
	defer conn.Close()
	if _, err = fmt.Fprintf(conn, "SUB %s\n", strings.Join(symbols, ",")); err != nil {
		f.logger.Warn("subscribe failed", "feed", f.cfg.Name, "err", err)
		goto RETRY
	}
	sc := bufio.NewScanner(conn)
	for sc.Scan() {
		symbol, price, _ := strings.Cut(sc.Text(), " ")
		out <- Quote{Symbol: symbol, Price: price}
	}
	f.logger.Warn("feed ended", "feed", f.cfg.Name, "err", sc.Err())
	goto RETRY
}

// ---- Reported: a reset line dials again at once, a failure waits the same fixed time ----

// Resumable dials again at once when the feed asks it to (a "RESET" line before a failover on
// the server's side); after a failure it waits at the label.
func (f *Feed) Resumable(ctx context.Context, out chan<- Quote) {
	var conn net.Conn
	var err error
	goto DIAL
RETRY:
	select {
	case <-ctx.Done():
		return
	case <-time.After(f.cfg.RetryTimer): // related "feedsubscribe.go:183: long-running loop" // want `long-running loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
DIAL:
	conn, err = (&net.Dialer{Timeout: f.cfg.DialTimout}).DialContext(ctx, "tcp", f.cfg.Addr)
	if err != nil {
		f.logger.Warn("dial failed", "feed", f.cfg.Name, "err", err)
		goto RETRY
	}
	for r := bufio.NewReader(conn); ; {
		line, err := r.ReadString('\n')
		if err != nil {
			f.logger.Warn("feed broke", "feed", f.cfg.Name, "err", err)
			conn.Close()
			goto RETRY
		}
		if strings.TrimSpace(line) == "RESET" {
			conn.Close()
			goto DIAL
		}
		symbol, price, _ := strings.Cut(strings.TrimSpace(line), " ")
		out <- Quote{Symbol: symbol, Price: price}
	}
}

// ---- Not reported: a poll whose every round, answered or not, waits at the label ----

// Snapshot asks the feed for a snapshot every period and hands it on; a failed round waits for
// the next period as an answered one does: the wait is the poll's period.
func (f *Feed) Snapshot(ctx context.Context, out chan<- []Quote) {
	goto ASK
WAIT:
	select {
	case <-ctx.Done():
		return
	case <-time.After(f.cfg.RetryTimer):
	}
ASK:
	conn, err := (&net.Dialer{Timeout: f.cfg.DialTimout}).DialContext(ctx, "tcp", f.cfg.Addr)
	if err != nil {
		f.logger.Warn("snapshot: dial failed", "feed", f.cfg.Name, "err", err)
		goto WAIT
	}
	var quotes []Quote
	if _, err := fmt.Fprintln(conn, "SNAPSHOT"); err == nil {
		for sc := bufio.NewScanner(conn); sc.Scan(); {
			symbol, price, _ := strings.Cut(sc.Text(), " ")
			quotes = append(quotes, Quote{Symbol: symbol, Price: price})
		}
	}
	conn.Close()
	out <- quotes
	goto WAIT
}

// ---- Not reported: each round waits for the connection manager's "connected" event ----

// Consumer re-runs its consumption each time the feed's connection manager (which reconnects
// with its own backoff) says the connection is up; the short pause after a run is not what
// paces reconnects.
type Consumer struct {
	feed      *Feed
	connected chan struct{}
	closing   chan struct{}
}

// Run consumes until closing is closed or ctx ends.
func (c *Consumer) Run(ctx context.Context, symbols []string, out chan<- Quote) {
	again := false
	for {
		select {
		case <-c.closing:
			return
		default:
		}
		if again {
			if err := c.declare(ctx, symbols); err != nil {
				c.feed.logger.Error("declare subscription", "err", err)
			}
		}
		select {
		case <-c.connected:
			c.consume(ctx, out)
		case <-c.closing:
			return
		case <-ctx.Done():
			return
		}
		time.Sleep(100 * time.Millisecond)
		again = true
	}
}

func (c *Consumer) declare(ctx context.Context, symbols []string) error {
	conn, err := (&net.Dialer{Timeout: c.feed.cfg.DialTimout}).DialContext(ctx, "tcp", c.feed.cfg.Addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "DECLARE %s\n", strings.Join(symbols, ","))
	return err
}

func (c *Consumer) consume(ctx context.Context, out chan<- Quote) {
	conn, err := (&net.Dialer{Timeout: c.feed.cfg.DialTimout}).DialContext(ctx, "tcp", c.feed.cfg.Addr)
	if err != nil {
		return
	}
	defer conn.Close()
	for sc := bufio.NewScanner(conn); sc.Scan(); {
		symbol, price, _ := strings.Cut(sc.Text(), " ")
		out <- Quote{Symbol: symbol, Price: price}
	}
}
