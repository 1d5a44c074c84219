package loops

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// An overall deadline kept in a timer made before the loop: it is checked between attempts,
// without blocking and beside the jittered wait. Receiving from it ends the retries; it is
// not a wait between them.
var errTxnTimeout = errors.New("transaction: gave up after its time limit")

type session struct{ label string }

func (s *session) commit(ctx context.Context) error { return ctx.Err() }

func transientTxn(err error) bool { return err != nil && !errors.Is(err, context.Canceled) }

func (s *session) withTransaction(ctx context.Context, limit time.Duration) error { // want withTransaction:`retries: retry loop at deadlinetimer.go:26, attempts=unbounded`
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	backoff := 5 * time.Millisecond
	for i := 0; ; i++ { // want `retry loop: attempts=unbounded wait=jittered deadline=context`
		if i > 0 {
			sleep := time.NewTimer(time.Duration(rand.Int64N(int64(backoff))))
			select {
			case <-deadline.C:
				sleep.Stop()
				return errTxnTimeout
			case <-sleep.C:
			}
			backoff = min(2*backoff, 500*time.Millisecond)
		}
		err := s.commit(ctx)
		if err == nil {
			return nil
		}
		log.Printf("%s: commit: %v", s.label, err)
		select {
		case <-deadline.C:
			return errTxnTimeout
		default:
		}
		if !transientTxn(err) {
			return err
		}
	}
}
