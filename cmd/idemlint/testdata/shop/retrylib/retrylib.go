// Package retrylib is an in-house retry helper; idemlint infers that it retries its function.
package retrylib

import (
	"context"
	"math/rand/v2"
	"time"
)

// Do calls fn until it succeeds, at most attempts times.
func Do(ctx context.Context, attempts int, fn func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(10 * time.Millisecond << i))))
	}
	return err
}
