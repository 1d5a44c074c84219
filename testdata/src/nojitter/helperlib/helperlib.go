// Package helperlib is an in-house retry helper: its loop is reported here, once.
package helperlib

import (
	"context"
	"log"
	"time"
)

// Do calls op up to attempts times, waiting a fixed second between them.
func Do(ctx context.Context, attempts int, op func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		log.Printf("attempt %d: %v", i, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // related "helperlib.go:13: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
		}
	}
	return err
}
