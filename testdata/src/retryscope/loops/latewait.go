package loops

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// A retry that replaces its connection on a redirect and closes the old one a little later,
// in a goroutine: that sleep delays nobody, the loop's wait is the jittered one.
type redisConn struct{ addr string }

func (c *redisConn) do(ctx context.Context, cmd string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return "OK", nil
}

func (c *redisConn) close() {}

type ring struct{ conns map[string]*redisConn }

var errMoved = errors.New("MOVED")

func (r *ring) redirect(addr string) *redisConn {
	old := r.conns[addr]
	next := &redisConn{addr: addr}
	r.conns[addr] = next
	if old != nil {
		go func() {
			time.Sleep(5 * time.Second) // let in-flight commands finish
			old.close()
		}()
	}
	return next
}

func (r *ring) send(ctx context.Context, addr, cmd string) (string, error) { // want send:`retries: retry loop at latewait.go:43, attempts=4`
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry loop: attempts=4 wait=jittered deadline=context`
		var reply string
		if reply, err = r.conns[addr].do(ctx, cmd); err == nil {
			return reply, nil
		}
		if errors.Is(err, errMoved) {
			r.redirect(addr)
		}
		log.Printf("%s: %v", cmd, err)
		time.Sleep(time.Duration(rand.Int64N(int64(100 * time.Millisecond << attempt))))
	}
	return "", err
}
