package loops

import (
	"context"
	"errors"
	"log"
)

// A retry gated by a policy that is handed the context: the policy waits (with its own
// jittered backoff) and gives up when the context ends, so the loop's wait is the policy's and
// it observes the context, though the loop itself neither sleeps nor checks it.
type reply struct {
	val string
	err error
}

func (r reply) Error() error { return r.err }

type wire2 interface {
	Do(ctx context.Context, cmd string) reply
}

type retryPolicy interface {
	WaitOrSkipRetry(ctx context.Context, attempts int, err error) bool
}

type gatedClient struct {
	conn wire2
	rh   retryPolicy
}

var errReadonly = errors.New("READONLY")

func (c *gatedClient) Do(ctx context.Context, cmd string) (r reply) { // want Do:`retries: goto retry loop at gate.go:36, attempts=unknown`
	attempts := 1
retry: // want `goto retry loop: attempts=unknown wait=unknown deadline=context`
	r = c.conn.Do(ctx, cmd)
	if err := r.Error(); err != nil {
		if errors.Is(err, errReadonly) {
			log.Printf("%s: replica is read-only", cmd)
		}
		if c.rh.WaitOrSkipRetry(ctx, attempts, err) {
			attempts++
			goto retry
		}
	}
	return r
}
