package loops

import (
	"context"
	"errors"
	"log"
	"sync"
	"time"
)

// A connection pool that, when a connection is dropped, schedules a health check a little
// later: the timer is made with time.AfterFunc and reset on later drops. Resetting it
// schedules work and returns at once; a loop that drops a connection does not wait there.

type dbConn struct{ broken bool }

type dbPool struct {
	mu          sync.Mutex
	healthTimer *time.Timer
	healthCh    chan struct{}
	closed      chan struct{}
	idle        []*dbConn
}

func (p *dbPool) triggerHealthCheck() {
	const delay = 500 * time.Millisecond
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.healthTimer == nil {
		p.healthTimer = time.AfterFunc(delay, func() {
			select {
			case <-p.closed:
			case p.healthCh <- struct{}{}:
			default:
			}
		})
		return
	}
	p.healthTimer.Reset(delay)
}

func (p *dbPool) release(c *dbConn) {
	if c.broken {
		p.triggerHealthCheck()
		return
	}
	p.mu.Lock()
	p.idle = append(p.idle, c)
	p.mu.Unlock()
}

var errResettable = errors.New("resettable connection error")

// withRetries runs fn on a connection, and after a resettable error drops the connection and
// waits as the caller's backoff says (a library's jittered exponential function): the drop's
// health-check timer is no wait between attempts. Not reported.
func (p *dbPool) withRetries(ctx context.Context, maxRetries int, backoff func(context.Context, uint) time.Duration, acquire func(context.Context) (*dbConn, error), fn func(*dbConn) error) error {
	conn, err := acquire(ctx)
	if err != nil {
		return err
	}
	for retries := 0; retries <= maxRetries; retries++ {
		err = fn(conn)
		if err == nil {
			p.release(conn)
			return nil
		}
		if !errors.Is(err, errResettable) {
			p.release(conn)
			return err
		}
		log.Printf("resettable error on try %d: %v", retries+1, err)
		conn.broken = true
		p.release(conn)
		select {
		case <-time.After(backoff(ctx, uint(retries+1))):
		case <-ctx.Done():
			return ctx.Err()
		}
		if conn, err = acquire(ctx); err != nil {
			return err
		}
	}
	return err
}
