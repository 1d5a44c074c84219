package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"
)

// Loops that take the next item out of a source each round, by structure rather than by a
// library's name: a pool that pops idle connections and drops the stale ones, a stream that
// steps over its readers. They try the next item after a bad one; they retry nothing.

type poolConn struct {
	nc      net.Conn
	usedAt  time.Time
	healthy bool
}

func (c *poolConn) stale(now time.Time, maxIdle time.Duration) bool {
	return !c.healthy || now.Sub(c.usedAt) > maxIdle
}

// ConnHook may refuse a pooled connection before it is handed out.
type ConnHook interface {
	OnGet(ctx context.Context, nc net.Conn) (accept bool, err error)
}

type connPool struct {
	mu      sync.Mutex
	idle    []*poolConn
	maxIdle time.Duration
	hook    ConnHook
	dial    func(ctx context.Context) (net.Conn, error)
}

// popIdle takes the most recently used idle connection out of the pool, or nil.
func (p *connPool) popIdle() (*poolConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle)
	if n == 0 {
		return nil, nil
	}
	cn := p.idle[n-1]
	p.idle = p.idle[:n-1]
	return cn, nil
}

func (p *connPool) closeConn(cn *poolConn, reason string) error {
	slog.Debug("closing pooled connection", "reason", reason)
	return cn.nc.Close()
}

// Get takes idle connections until one is fresh and its hook accepts it, closing the others,
// and dials when the pool runs dry: each round looks at the next connection, none is tried
// twice.
func (p *connPool) Get(ctx context.Context) (*poolConn, error) {
	now := time.Now()
	for attempts := 0; attempts < 3; attempts++ {
		cn, err := p.popIdle()
		if err != nil {
			return nil, err
		}
		if cn == nil {
			break
		}
		if cn.stale(now, p.maxIdle) {
			if err := p.closeConn(cn, "stale"); err != nil {
				slog.Warn("close stale connection", "err", err)
			}
			continue
		}
		if p.hook != nil {
			accept, err := p.hook.OnGet(ctx, cn.nc)
			if err != nil || !accept {
				slog.Debug("hook refused pooled connection", "err", err)
				_ = p.closeConn(cn, "refused")
				continue
			}
		}
		cn.usedAt = now
		return cn, nil
	}
	nc, err := p.dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("dial: %w", err)
	}
	return &poolConn{nc: nc, usedAt: now, healthy: true}, nil
}

// RecordReader reads records from one batch; its implementations may read from the network.
type RecordReader interface {
	ReadRecord() ([]byte, error)
}

// recordStream reads the batches one after another: at the end of one (io.EOF) it steps to
// the next, so each round reads a different reader.
type recordStream struct {
	batches []RecordReader
	index   int
}

func (s *recordStream) ReadRecord() ([]byte, error) {
	for {
		if s.index < 0 || s.index >= len(s.batches) {
			return nil, io.EOF
		}
		rec, err := s.batches[s.index].ReadRecord()
		if err != nil {
			if errors.Is(err, io.EOF) {
				s.index++
				continue
			}
			return nil, fmt.Errorf("batch %d: %w", s.index, err)
		}
		return rec, nil
	}
}

// stuckStream reads the same batch again after a failure: a retry of one reader, without a
// wait.
type stuckStream struct {
	batches []RecordReader
	index   int
	errs    int
}

func (s *stuckStream) ReadRecord() ([]byte, error) {
	for { // related "sources.go:134: retry loop" // want `retry loop goes round without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap`
		if s.index >= len(s.batches) {
			return nil, io.EOF
		}
		rec, err := s.batches[s.index].ReadRecord()
		if err != nil {
			s.errs++
			slog.Warn("read record", "batch", s.index, "errors", s.errs, "err", err)
			continue
		}
		return rec, nil
	}
}

// A pool whose idle connections are a linked list: Get takes the front one and checks it
// with the user's test, closing those that fail; each round looks at the next connection.

type idleConn struct {
	nc         net.Conn
	created    time.Time
	next, prev *idleConn
}

type idleList struct {
	count       int
	front, back *idleConn
}

func (l *idleList) popFront() {
	pc := l.front
	l.count--
	if l.count == 0 {
		l.front, l.back = nil, nil
		return
	}
	pc.next.prev = nil
	l.front = pc.next
	pc.next, pc.prev = nil, nil
}

type listPool struct {
	mu           sync.Mutex
	idle         idleList
	active       int
	TestOnBorrow func(nc net.Conn, idleSince time.Time) error
	Dial         func(ctx context.Context) (net.Conn, error)
}

// Get hands out the first idle connection that passes TestOnBorrow, or dials a new one.
func (p *listPool) Get(ctx context.Context) (net.Conn, error) {
	p.mu.Lock()
	for p.idle.front != nil {
		pc := p.idle.front
		p.idle.popFront()
		p.mu.Unlock()
		if p.TestOnBorrow == nil || p.TestOnBorrow(pc.nc, pc.created) == nil {
			return pc.nc, nil
		}
		pc.nc.Close()
		p.mu.Lock()
		p.active--
	}
	p.active++
	p.mu.Unlock()
	nc, err := p.Dial(ctx)
	if err != nil {
		p.mu.Lock()
		p.active--
		p.mu.Unlock()
		return nil, fmt.Errorf("dial: %w", err)
	}
	return nc, nil
}
