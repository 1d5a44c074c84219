package loops

import (
	"context"
	"errors"
	"math/rand"
	"net"
	"time"
)

// A cache client whose commands go round through a retry handler of its own: the handler's
// WaitOrSkip both decides whether to go round and waits the delay of the policy it was given
// (jittered by default) before it says yes.
// The wait lies in the decision itself, before the branch that goes round: not reported. (An
// expired pooled connection is dialled again at once: a local condition, not a failing
// server.)

var errPooledConnExpired = errors.New("pooled connection expired")

type cacheRetryHandler interface {
	WaitOrSkip(ctx context.Context, attempts int, err error) bool
}

type cacheRetryer struct {
	max     int
	delayFn func(attempts int) time.Duration // the caller's policy
}

func newCacheRetryer(max int, delayFn func(int) time.Duration) *cacheRetryer {
	if delayFn == nil {
		delayFn = jitteredDelay
	}
	return &cacheRetryer{max: max, delayFn: delayFn}
}

// waitFor waits d, or until ctx is done.
func (r *cacheRetryer) waitFor(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// WaitOrSkip waits the policy's delay and says to go round, unless the attempts or the
// context's time are used up.
func (r *cacheRetryer) WaitOrSkip(ctx context.Context, attempts int, err error) bool {
	if attempts >= r.max {
		return false
	}
	d := r.delayFn(attempts)
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return false
	}
	r.waitFor(ctx, d)
	return ctx.Err() == nil
}

// jitteredDelay is the default policy.
func jitteredDelay(attempts int) time.Duration {
	base := 10 * time.Millisecond
	return base<<min(attempts, 10) + time.Duration(rand.Int63n(int64(base)))
}

type cacheConn interface {
	Do(ctx context.Context, cmd string) (string, error)
}

// tcpCacheConn sends a command on a connection it dials.
type tcpCacheConn struct {
	addr   string
	dialer net.Dialer
}

func (t *tcpCacheConn) Do(ctx context.Context, cmd string) (string, error) {
	conn, err := t.dialer.DialContext(ctx, "tcp", t.addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(cmd + "\r\n")); err != nil {
		return "", err
	}
	buf := make([]byte, 512)
	n, err := conn.Read(buf)
	return string(buf[:n]), err
}

type cacheClient struct {
	conn  cacheConn
	retry cacheRetryHandler
	dial  net.Dialer
}

func (c *cacheClient) Do(ctx context.Context, cmd string) (string, error) {
	attempts := 1
retry:
	resp, err := c.conn.Do(ctx, cmd)
	if errors.Is(err, errPooledConnExpired) {
		goto retry
	}
	var ne net.Error
	if errors.As(err, &ne) {
		if c.retry.WaitOrSkip(ctx, attempts, err) {
			attempts++
			goto retry
		}
	}
	return resp, err
}
