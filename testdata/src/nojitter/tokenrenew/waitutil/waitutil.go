// Package waitutil holds the SDK's waits.
package waitutil

import (
	"context"
	"time"
)

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
