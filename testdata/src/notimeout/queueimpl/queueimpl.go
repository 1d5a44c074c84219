// Package queueimpl is a message queue over a SQL table. Its consumer holds the queue behind an
// interface the package declares (Queue[T], filled by NewQueue with *SQLQueue[T]) and polls
// it for ever with a context that has no deadline: a stalled database hangs the poll, which
// reaches the database through the one implementation. A store interface the package fills
// with two implementations says nothing about which one runs.
package queueimpl

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

type Message[T any] struct {
	ID      int64
	Body    T
	Attempt int
}

// Queue is what the consumer needs from a queue.
type Queue[T any] interface {
	Receive(ctx context.Context, queue string) (*Message[T], error)
	Delete(ctx context.Context, id int64) error
}

// SQLQueue is the package's one Queue.
type SQLQueue[T any] struct {
	db *sql.DB
}

func NewQueue[T any](db *sql.DB) Queue[T] {
	return &SQLQueue[T]{db: db}
}

var ErrEmpty = errors.New("queueimpl: queue is empty")

func (q *SQLQueue[T]) Receive(ctx context.Context, queue string) (*Message[T], error) {
	var (
		id      int64
		raw     []byte
		attempt int
	)
	err := q.db.QueryRowContext(ctx,
		`UPDATE messages SET attempt = attempt + 1, visible_at = now() + interval '30 seconds'
		 WHERE id = (SELECT id FROM messages WHERE queue = $1 AND visible_at <= now() ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
		 RETURNING id, body, attempt`, queue).Scan(&id, &raw, &attempt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrEmpty
	}
	if err != nil {
		return nil, fmt.Errorf("queueimpl: receive: %w", err)
	}
	m := &Message[T]{ID: id, Attempt: attempt}
	if err := json.Unmarshal(raw, &m.Body); err != nil {
		return nil, fmt.Errorf("queueimpl: decode %d: %w", id, err)
	}
	return m, nil
}

func (q *SQLQueue[T]) Delete(ctx context.Context, id int64) error {
	_, err := q.db.ExecContext(ctx, `DELETE FROM messages WHERE id = $1`, id)
	return err
}

type Consumer[T any] struct {
	queue   Queue[T]
	name    string
	handle  func(context.Context, T) error
	logger  *slog.Logger
	timeout time.Duration
}

func NewConsumer[T any](q Queue[T], name string, handle func(context.Context, T) error) *Consumer[T] {
	return &Consumer[T]{queue: q, name: name, handle: handle, logger: slog.Default(), timeout: 30 * time.Second}
}

// Run polls without a deadline: the receive can hang for ever.
func (c *Consumer[T]) Run() error {
	for {
		ctx := context.Background()
		m, err := c.queue.Receive(ctx, c.name) // related "queueimpl.go:42: SQLQueue.Receive passes its context to DB.QueryRowContext" "queueimpl.go:85: context.Background() has no deadline" // want `SQLQueue\.Receive passes a context without a deadline to DB\.QueryRowContext, so a stalled database hangs this call`
		if errors.Is(err, ErrEmpty) {
			time.Sleep(time.Second + time.Duration(rand.Int64N(int64(time.Second))))
			continue
		}
		if err != nil {
			return err
		}
		c.process(m)
	}
}

// RunWithin bounds each receive: silent.
func (c *Consumer[T]) RunWithin(parent context.Context) error {
	for {
		ctx, cancel := context.WithTimeout(parent, c.timeout)
		m, err := c.queue.Receive(ctx, c.name)
		cancel()
		if errors.Is(err, ErrEmpty) {
			select {
			case <-parent.Done():
				return parent.Err()
			case <-time.After(time.Second + time.Duration(rand.Int64N(int64(time.Second)))):
			}
			continue
		}
		if err != nil {
			return err
		}
		c.process(m)
	}
}

func (c *Consumer[T]) process(m *Message[T]) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	if err := c.handle(ctx, m.Body); err != nil {
		c.logger.Warn("handler failed", "id", m.ID, "attempt", m.Attempt, "err", err)
		return
	}
	if err := c.queue.Delete(ctx, m.ID); err != nil {
		c.logger.Error("delete failed", "id", m.ID, "err", err)
	}
}

// Store has two implementations in the package: which one a caller holds is not known here.
type Store interface {
	Save(ctx context.Context, key string, v []byte) error
}

type sqlStore struct{ db *sql.DB }

func (s *sqlStore) Save(ctx context.Context, key string, v []byte) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO kv (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = $2`, key, v)
	return err
}

type memStore struct{ m map[string][]byte }

func (s *memStore) Save(_ context.Context, key string, v []byte) error {
	s.m[key] = v
	return nil
}

func Checkpoint(s Store, key string, v []byte) error {
	return s.Save(context.Background(), key, v)
}
