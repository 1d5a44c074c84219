package idempotency

import (
	"context"
	"log/slog"
	"time"
)

// RunReaper deletes expired records (Store.Reap) every interval until ctx is done. Run it in one
// goroutine per process (several processes reaping the same store is harmless). A nil logger
// means slog.Default().
func RunReaper(ctx context.Context, store Store, every time.Duration, logger *slog.Logger) {
	if logger == nil {
		logger = slog.Default()
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := store.Reap(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			logger.WarnContext(ctx, "idempotency: reaping expired keys failed", "err", err)
		case n > 0:
			logger.DebugContext(ctx, "idempotency: reaped expired keys", "count", n)
		}
	}
}
