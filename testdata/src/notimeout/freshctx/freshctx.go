// Package freshctx is a subscriber store whose functions give each database call a new
// context without a deadline: one cause per function (it has no context to give), one finding.
package freshctx

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
)

type Store struct {
	db  *sql.DB
	log *slog.Logger
}

// ---- Reported ----

// DeleteByQuery runs an expression an administrator typed: each step gets a context nothing
// ends.
func (s *Store) DeleteByQuery(expr string, listIDs []int64) (int64, error) {
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: false}) // related "freshctx.go:23: context.Background() has no deadline", "freshctx.go:28: Tx.ExecContext gets context.Background() too", "freshctx.go:37: Tx.QueryRowContext gets context.TODO() too" // want `DB\.BeginTx and 2 more calls get contexts without a deadline, so a stalled database hangs them; use context\.WithTimeout`
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(context.Background(), "DELETE FROM subscribers WHERE "+expr)
	if err != nil {
		return 0, fmt.Errorf("delete: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	var left int64
	if err := tx.QueryRowContext(context.TODO(), "SELECT count(*) FROM subscribers").Scan(&left); err != nil {
		return 0, err
	}
	s.log.Info("deleted by query", "n", n, "left", left, "lists", listIDs)
	return n, tx.Commit()
}

// Blocklist has its caller's context at hand and drops it, twice.
func (s *Store) Blocklist(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return errors.New("no subscribers")
	}
	if _, err := s.db.ExecContext(context.Background(), "UPDATE subscribers SET status = 'blocklisted' WHERE id = ANY($1)", ids); err != nil { // related "freshctx.go:49: context.Background() has no deadline", "freshctx.go:52: DB.ExecContext gets context.Background() too" // want `DB\.ExecContext and 1 more call get contexts without a deadline, so a stalled database hangs them; pass ctx`
		return err
	}
	_, err := s.db.ExecContext(context.Background(), "DELETE FROM subscriber_lists WHERE subscriber_id = ANY($1)", ids)
	return err
}

// ---- Not reported ----

// Unsubscribe passes its caller's context on.
func (s *Store) Unsubscribe(ctx context.Context, id int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE subscribers SET status = 'unsubscribed' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit()
}
