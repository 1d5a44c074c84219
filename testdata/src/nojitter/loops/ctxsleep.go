package loops

import (
	"context"
	"errors"
	"time"
)

// A wait helper that gives up when the context is done: the loop observes ctx through it.

var errTemporary = errors.New("temporary")

// sleepCtx waits d, or until ctx is done; it reports whether the wait ran its course.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		select {
		case <-ctx.Done():
			return false
		default:
			return true
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

type partitionReader interface {
	ReadPartitions(topic string) ([]int, error)
}

// lookupPartitions asks until an answer that is not temporary, waiting through sleepCtx.
func lookupPartitions(ctx context.Context, r partitionReader, topic string) ([]int, error) {
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if !sleepCtx(ctx, 100*time.Millisecond) { // related "ctxsleep.go:39: retry loop" // want `retry loop waits a fixed 100ms between attempts, so clients that failed together retry together; add jitter`
				return nil, ctx.Err()
			}
		}
		parts, err := r.ReadPartitions(topic)
		if err != nil {
			if errors.Is(err, errTemporary) {
				continue
			}
			return nil, err
		}
		return parts, nil
	}
}
