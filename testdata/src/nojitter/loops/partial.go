package loops

import (
	"context"
	"errors"
	"log"
	"time"
)

// loadErrors lists the topics whose metadata came back with an error (still being created,
// leader moving): a partial failure beside a request that succeeded.
type loadErrors struct{ topics []string }

func (l *loadErrors) Error() string { return "load errors" }

type metaClient struct {
	refresh func(ctx context.Context) (*loadErrors, error)
}

// updateUntilLoaded asks again, a fixed 250 ms later, while the request succeeds with load
// errors in it (a request that fails has been retried inside refresh): the way round needs
// err == nil, which the partial failure gives.
func (c *metaClient) updateUntilLoaded(ctx context.Context) error {
	tries := 0
start:
	tries++
	partial, err := c.refresh(ctx)
	if partial != nil || err != nil {
		if err == nil && tries < 8 {
			log.Printf("metadata: %d topics not loaded yet", len(partial.topics))
			time.Sleep(250 * time.Millisecond) // related "partial.go:25: goto retry loop" // want `goto retry loop waits a fixed 250ms between attempts, so clients that failed together retry together; add jitter`
			goto start
		}
		if err != nil {
			return err
		}
		return errors.New("metadata: topics not loaded")
	}
	return nil
}
