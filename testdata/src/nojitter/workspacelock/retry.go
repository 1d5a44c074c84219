// Package workspacelock locks and unlocks workspaces of a remote state service.
package workspacelock

import (
	"context"
	"log"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

const (
	initialDelay = time.Second
	maxDelay     = 30 * time.Second
)

// Fatal marks an error that is not retried.
type Fatal interface {
	FatalError() error
}

// retryBackoff calls f until it returns nil or a Fatal error, waiting longer each time. It
// stops early only when ctx is done: it has no attempt cap of its own.
func retryBackoff(ctx context.Context, f func() error) error {
	done := make(chan struct{})
	var last atomic.Value
	type wrapped struct{ err error }

	go func() {
		defer close(done)
		var delay time.Duration
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(delay):
			}
			err := f()
			switch e := err.(type) {
			case nil:
				return
			case Fatal:
				last.Store(wrapped{e.FatalError()})
				return
			}
			delay = min(max(2*delay, initialDelay), maxDelay)
			delay += rand.N(delay / 2)
			log.Printf("[WARN] retryable error: %q, waiting %s", err, delay)
		}
	}()

	<-done
	if err := ctx.Err(); err != nil {
		return err
	}
	if w, ok := last.Load().(wrapped); ok {
		return w.err
	}
	return nil
}
