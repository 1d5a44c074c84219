package loops

import (
	"context"
	"errors"
	"math/rand"
	"net"
	"time"
)

// A cache client whose commands go round through a retry handler of its own: the handler's
// WaitOrSkip both decides whether to go round and waits a jittered delay before it says yes.
// The wait lies in the decision itself, before the branch that goes round: not reported. (An
// expired pooled connection is dialled again at once: a local condition, not a failing
// server.)

var errPooledConnExpired = errors.New("pooled connection expired")

type cacheRetryHandler interface {
	WaitOrSkip(ctx context.Context, attempts int, err error) bool
}

type cacheRetryer struct {
	max  int
	base time.Duration
}

func (r *cacheRetryer) delay(attempts int) time.Duration {
	return r.base<<min(attempts, 10) + time.Duration(rand.Int63n(int64(r.base)))
}

// WaitOrSkip waits a jittered delay and says to go round, unless the attempts or the
// context's time are used up.
func (r *cacheRetryer) WaitOrSkip(ctx context.Context, attempts int, err error) bool {
	if attempts >= r.max {
		return false
	}
	d := r.delay(attempts)
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
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
