// Package usebgpool waits for the cache at start-up, retrying the pool's constructor.
package usebgpool

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"nestedretry/bgpool"
)

// Connect retries bgpool.New: New dials once; its background filling is not a layer of
// these attempts.
func Connect(ctx context.Context, addr string) (*bgpool.Pool, error) {
	var lastErr error
	for attempt := 0; attempt < 10; attempt++ {
		p, err := bgpool.New(ctx, addr, 8)
		if err == nil {
			return p, nil
		}
		lastErr = err
		slog.Warn("cache not ready", "attempt", attempt, "err", err)
		time.Sleep(time.Second + time.Duration(rand.Int64N(int64(time.Second))))
	}
	return nil, lastErr
}

// ConnectRetrying retries bgpool.Dial, which retries its own dial: 10 × 5 dials.
func ConnectRetrying(ctx context.Context, addr string) (*bgpool.Pool, error) {
	var lastErr error
	for attempt := 0; attempt < 10; attempt++ {
		p, err := bgpool.Dial(ctx, addr, 8) // related "usebgpool.go:32: outer retry loop" // want `retries up to 10 times around bgpool\.Dial, which retries up to 5 times: up to 50 calls per request; keep one layer`
		if err == nil {
			return p, nil
		}
		lastErr = err
		time.Sleep(time.Second + time.Duration(rand.Int64N(int64(time.Second))))
	}
	return nil, lastErr
}

// WarmAll retries Warm, whose parallel dials retry and are waited for: attempts multiply.
func WarmAll(ctx context.Context, addrs []string) ([]*bgpool.Pool, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		pools, err := bgpool.Warm(ctx, addrs) // related "usebgpool.go:46: outer retry loop" // want `retries up to 3 times around bgpool\.Warm, which retries up to 5 times: up to 15 calls per request; keep one layer`
		if err == nil {
			return pools, nil
		}
		lastErr = err
		time.Sleep(time.Second + time.Duration(rand.Int64N(int64(time.Second))))
	}
	return nil, lastErr
}
