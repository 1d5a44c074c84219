// Package helperlib is an in-house retry helper whose attempt is the callback it is handed
// (func(context.Context) error): what it retries is its callers' choice, so its fixed wait is
// reported where a caller hands it work that leaves the process (see usehelper), not here.
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
		case <-time.After(time.Second):
		}
	}
	return err
}
