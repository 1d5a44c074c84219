// Package bgpool is a connection pool: New dials one connection at once, to fail fast when
// the server is not there, and fills the rest in the background, pausing after a failed dial.
// Those background dials are not New's attempts: New's error is its one dial's. Dial, by
// contrast, retries its dial before it returns.
package bgpool

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"nestedretry/bgpool/proc"
)

type Pool struct {
	addr  string
	size  int
	mu    sync.Mutex
	conns []net.Conn
	proc  *proc.Proc
	d     net.Dialer
}

func (p *Pool) dial(ctx context.Context) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return p.d.DialContext(ctx, "tcp", p.addr)
}

func (p *Pool) put(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.conns) >= p.size {
		return false
	}
	p.conns = append(p.conns, c)
	return true
}

// New dials once, then fills the pool in the background.
func New(ctx context.Context, addr string, size int) (*Pool, error) {
	p := &Pool{addr: addr, size: size, proc: proc.New()}
	c, err := p.dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("bgpool: first dial: %w", err)
	}
	p.put(c)
	p.proc.Run(func(ctx context.Context) {
		for i := 0; i < p.size-1; i++ {
			c, err := p.dial(ctx)
			if err != nil {
				time.Sleep(100 * time.Millisecond)
				i--
				continue
			}
			if !p.put(c) {
				c.Close()
				return
			}
		}
	})
	return p, nil
}

// Dial retries its first dial with backoff before it gives up.
func Dial(ctx context.Context, addr string, size int) (*Pool, error) {
	p := &Pool{addr: addr, size: size, proc: proc.New()}
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var c net.Conn
		if c, err = p.dial(ctx); err == nil {
			p.put(c)
			return p, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(100<<attempt) * time.Millisecond):
		}
	}
	return nil, errors.Join(errors.New("bgpool: dial"), err)
}

// Warm dials every address with Dial's retries, in parallel, and waits for all of them: the
// retries are Warm's own.
func Warm(ctx context.Context, addrs []string) ([]*Pool, error) {
	pools := make([]*Pool, len(addrs))
	var g proc.Group
	for i, addr := range addrs {
		g.Go(func() error {
			p, err := Dial(ctx, addr, 1)
			pools[i] = p
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return pools, nil
}
