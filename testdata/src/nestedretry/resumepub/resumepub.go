// Package resumepub publishes messages over a connection it keeps. When a publish fails it
// reconnects, once a second, until that succeeds or it gives up; then it publishes again.
// The publishing loop goes round only after the reconnect loop succeeded, and returns when
// the reconnect loop gives up: the two loops' attempts do not multiply. A publisher whose
// reconnect loop breaks out when it gives up, and goes round all the same, does multiply them.
package resumepub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"time"
)

type Publisher struct {
	addr     string
	conn     net.Conn
	log      *slog.Logger
	maxTries int
}

func (p *Publisher) send(msg []byte) error {
	if p.conn == nil {
		return errors.New("not connected")
	}
	_ = p.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := p.conn.Write(msg); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

func (p *Publisher) reconnect(ctx context.Context) error {
	if p.conn != nil {
		p.conn.Close()
		p.conn = nil
	}
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", p.addr)
	if err != nil {
		return err
	}
	p.conn = conn
	return nil
}

func jittered(d time.Duration) time.Duration { return d/2 + rand.N(d/2+1) }

// Publish sends msg, reconnecting and sending again after a failure.
func (p *Publisher) Publish(ctx context.Context, msg []byte) error {
	for sent := 0; ; sent++ {
		err := p.send(msg)
		if err == nil {
			return nil
		}
		if sent >= p.maxTries {
			return fmt.Errorf("publish: %w", err)
		}
		p.log.Warn("publish failed, reconnecting", "err", err)
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(jittered(time.Second)):
			}
			if err = p.reconnect(ctx); err == nil {
				break
			}
			if n >= p.maxTries {
				return fmt.Errorf("reconnect: giving up after %d attempts: %w", n, err)
			}
			p.log.Warn("reconnect failed", "err", err, "attempt", n)
		}
	}
}

// PublishStubborn goes round even when its reconnect loop gave up: each round of it makes up
// to maxTries reconnects.
func (p *Publisher) PublishStubborn(ctx context.Context, msg []byte) error {
	for sent := 0; ; sent++ {
		err := p.send(msg)
		if err == nil {
			return nil
		}
		if sent >= p.maxTries {
			return fmt.Errorf("publish: %w", err)
		}
		for n := 1; n <= p.maxTries; n++ { // related "resumepub.go:83: outer retry loop" // want `retries around an inner retry loop, which retries too: attempts multiply; keep one layer`
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(jittered(time.Second)):
			}
			if err = p.reconnect(ctx); err == nil {
				break
			}
			p.log.Warn("reconnect failed", "err", err, "attempt", n)
		}
	}
}
