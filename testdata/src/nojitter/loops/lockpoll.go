package loops

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand"
	"time"
)

// An outbox worker per partition: it takes the partition's advisory lock and publishes what is
// pending. When another node holds the lock it polls again after the poll interval: the lock's
// holder is healthy, nothing failed. After a failure of the database it backs off with jitter.
// The loop's wait after a failure is jittered: not reported. A worker that waits a fixed second
// after any failure is.

var errLockHeld = errors.New("partition lock held by another node")

type outboxWorker struct {
	db           *sql.DB
	pollInterval time.Duration
	log          *slog.Logger
}

// publishOnce publishes one batch of the partition, under its advisory lock.
func (w *outboxWorker) publishOnce(ctx context.Context, partition int) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var locked bool
	if err := tx.QueryRowContext(ctx, "SELECT pg_try_advisory_xact_lock($1)", partition).Scan(&locked); err != nil {
		return 0, err
	}
	if !locked {
		return 0, errLockHeld
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE partition = $1 ORDER BY id LIMIT 100)", partition)
	if err != nil {
		return 0, fmt.Errorf("publish partition %d: %w", partition, err)
	}
	n, _ := res.RowsAffected()
	return int(n), tx.Commit()
}

func (w *outboxWorker) run(ctx context.Context, partition int) error {
	backoff := time.Duration(0)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		n, err := w.publishOnce(ctx, partition)
		if err != nil {
			if errors.Is(err, errLockHeld) {
				select {
				case <-time.After(w.pollInterval):
				case <-ctx.Done():
					return ctx.Err()
				}
				continue
			}
			backoff = min(2*backoff+50*time.Millisecond, 10*time.Second)
			w.log.Error("publish failed", "partition", partition, "err", err)
			select {
			case <-time.After(time.Duration(rand.Int63n(int64(backoff)))):
			case <-ctx.Done():
				return ctx.Err()
			}
			continue
		}
		backoff = 0
		if n == 0 {
			select {
			case <-time.After(w.pollInterval):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

func (w *outboxWorker) runFixed(ctx context.Context, partition int) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if _, err := w.publishOnce(ctx, partition); err != nil {
			w.log.Error("publish failed", "partition", partition, "err", err)
			select {
			case <-time.After(time.Second): // related "lockpoll.go:90: long-running loop" // want `long-running loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}
