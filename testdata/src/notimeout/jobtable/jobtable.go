// Package jobtable keeps jobs of any payload type in a SQL table. Its generic client reaches
// the database through generic helpers of its own (claim → selectReady → the query), and its
// worker polls with a context that has no deadline.
package jobtable

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"
)

type Job[T any] struct {
	ID       int64
	Payload  T
	Attempts int
	LeasedAt time.Time
}

type Client[T any] interface {
	Claim(ctx context.Context, kind string, lease time.Duration) (*Job[T], error)
	Finish(ctx context.Context, id int64) error
}

type TableClient[T any] struct {
	db    *sql.DB
	table string
}

func NewClient[T any](db *sql.DB, table string) Client[T] {
	return &TableClient[T]{db: db, table: table}
}

var ErrNoJob = errors.New("jobtable: no job ready")

func (c *TableClient[T]) Claim(ctx context.Context, kind string, lease time.Duration) (*Job[T], error) {
	job, err := c.selectReady(ctx, kind)
	if err != nil {
		return nil, err
	}
	if job == nil {
		return nil, ErrNoJob
	}
	if err := c.lease(ctx, job, lease); err != nil {
		return nil, fmt.Errorf("jobtable: lease %d: %w", job.ID, err)
	}
	return job, nil
}

func (c *TableClient[T]) selectReady(ctx context.Context, kind string) (*Job[T], error) {
	row := c.db.QueryRowContext(ctx,
		fmt.Sprintf(`SELECT id, payload, attempts FROM %s WHERE kind = $1 AND leased_until < now() ORDER BY id LIMIT 1`, c.table), kind)
	return c.decode(row)
}

func (c *TableClient[T]) decode(row *sql.Row) (*Job[T], error) {
	var (
		job Job[T]
		raw []byte
	)
	if err := row.Scan(&job.ID, &raw, &job.Attempts); errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &job.Payload); err != nil {
		return nil, fmt.Errorf("jobtable: decode %d: %w", job.ID, err)
	}
	return &job, nil
}

func (c *TableClient[T]) lease(ctx context.Context, job *Job[T], d time.Duration) error {
	job.LeasedAt = time.Now()
	_, err := c.db.ExecContext(ctx,
		fmt.Sprintf(`UPDATE %s SET leased_until = $2, attempts = attempts + 1 WHERE id = $1`, c.table), job.ID, job.LeasedAt.Add(d))
	return err
}

func (c *TableClient[T]) Finish(ctx context.Context, id int64) error {
	_, err := c.db.ExecContext(ctx, fmt.Sprintf(`DELETE FROM %s WHERE id = $1`, c.table), id)
	return err
}

type Worker[T any] struct {
	client  Client[T]
	kind    string
	run     func(context.Context, T) error
	log     *slog.Logger
	timeout time.Duration
}

func NewWorker[T any](c Client[T], kind string, run func(context.Context, T) error) *Worker[T] {
	return &Worker[T]{client: c, kind: kind, run: run, log: slog.Default(), timeout: 20 * time.Second}
}

// Loop claims jobs for ever; each claim has no deadline, so a stalled database stops the
// worker for good.
func (w *Worker[T]) Loop() error {
	for {
		ctx := context.Background()
		job, err := w.client.Claim(ctx, w.kind, time.Minute) // related "jobtable.go:40: TableClient.Claim passes its context to DB.QueryRowContext" "jobtable.go:104: context.Background() has no deadline" // want `TableClient\.Claim passes a context without a deadline to DB\.QueryRowContext, so a stalled database hangs this call`
		if errors.Is(err, ErrNoJob) {
			time.Sleep(500*time.Millisecond + rand.N(500*time.Millisecond))
			continue
		}
		if err != nil {
			return err
		}
		w.handle(job)
	}
}

// LoopWithin bounds each claim (not reported).
func (w *Worker[T]) LoopWithin(parent context.Context) error {
	for {
		ctx, cancel := context.WithTimeout(parent, w.timeout)
		job, err := w.client.Claim(ctx, w.kind, time.Minute)
		cancel()
		if errors.Is(err, ErrNoJob) {
			select {
			case <-parent.Done():
				return parent.Err()
			case <-time.After(500*time.Millisecond + rand.N(500*time.Millisecond)):
			}
			continue
		}
		if err != nil {
			return err
		}
		w.handle(job)
	}
}

func (w *Worker[T]) handle(job *Job[T]) {
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	if err := w.run(ctx, job.Payload); err != nil {
		w.log.Warn("job failed", "id", job.ID, "attempts", job.Attempts, "err", err)
		return
	}
	if err := w.client.Finish(ctx, job.ID); err != nil {
		w.log.Error("finish failed", "id", job.ID, "err", err)
	}
}
