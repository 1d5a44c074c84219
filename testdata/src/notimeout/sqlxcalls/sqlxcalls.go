// Package sqlxcalls is a repository written with sqlx: its context-free methods (Get, Select,
// NamedExec, Beginx) take no context, so a stalled database hangs them, as database/sql's do;
// the ...Context forms are bounded by the context they are given.
package sqlxcalls

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

type Order struct {
	ID     int64  `db:"id"`
	Status string `db:"status"`
}

type Repo struct {
	db      *sqlx.DB
	timeout time.Duration
}

// ---- Reported ----

// Order loads one order with the context-free Get.
func (r *Repo) Order(id int64) (*Order, error) {
	var o Order
	if err := r.db.Get(&o, "SELECT id, status FROM orders WHERE id = $1", id); err != nil { // related "sqlxcalls.go:38: DB.Select takes no context either" "sqlxcalls.go:57: sqlx.Get takes no context either" // want `DB\.Get and 2 more calls in this package take no context: a stalled database hangs them; use their Context forms`
		return nil, fmt.Errorf("order %d: %w", id, err)
	}
	return &o, nil
}

// Pending lists the pending orders.
func (r *Repo) Pending() ([]Order, error) {
	var out []Order
	err := r.db.Select(&out, "SELECT id, status FROM orders WHERE status = 'pending'")
	return out, err
}

// Ship marks an order shipped in a transaction; the caller's ctx is not passed on.
func (r *Repo) Ship(ctx context.Context, id int64) error {
	tx, err := r.db.Beginx() // related "sqlxcalls.go:49: Tx.NamedExec takes no context either" // want `DB\.Beginx and 1 more call take no context, so a stalled database hangs them; use their Context forms with ctx`
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.NamedExec("UPDATE orders SET status = 'shipped' WHERE id = :id", map[string]any{"id": id}); err != nil {
		return err
	}
	return tx.Commit()
}

// Count uses the package function with the repository's DB.
func (r *Repo) Count() (n int, err error) {
	err = sqlx.Get(r.db, &n, "SELECT count(*) FROM orders")
	return n, err
}

// ---- Not reported ----

// OrderCtx passes its caller's context.
func (r *Repo) OrderCtx(ctx context.Context, id int64) (*Order, error) {
	var o Order
	if err := r.db.GetContext(ctx, &o, "SELECT id, status FROM orders WHERE id = $1", id); err != nil {
		return nil, err
	}
	return &o, nil
}

// Archive bounds its own transaction.
func (r *Repo) Archive(before time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	tx, err := r.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.GetContext(ctx, &n, "SELECT count(*) FROM orders WHERE created < $1", before); err != nil {
		return err
	}
	if _, err := r.db.NamedExecContext(ctx, "DELETE FROM orders WHERE created < :before", map[string]any{"before": before}); err != nil {
		return err
	}
	return tx.Commit()
}
