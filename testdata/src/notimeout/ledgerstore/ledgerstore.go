// Package ledgerstore is a data layer written without contexts: each method makes its own
// context.Background() for the database, while one gives its own a deadline. One design, one
// finding for the type. A method that is handed a context and makes a fresh one instead
// drops its caller's deadline: that one is its own finding.
package ledgerstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

type Account struct {
	ID      string
	Balance int64
}

type Store struct {
	db *sql.DB
}

func New(db *sql.DB) *Store { return &Store{db: db} }

func (s *Store) CreateAccount(a Account) error {
	ctx := context.Background()
	_, err := s.db.ExecContext(ctx, `INSERT INTO accounts (id, balance) VALUES ($1, $2)`, a.ID, a.Balance) // related "ledgerstore.go:26: context.Background() has no deadline" "ledgerstore.go:37: DB.QueryRowContext gets context.Background() too" "ledgerstore.go:45: DB.ExecContext gets context.Background() too" // want `DB\.ExecContext and 2 more calls in Store.s methods get contexts without a deadline: a stalled database hangs them`
	if err != nil {
		return fmt.Errorf("ledgerstore: create %s: %w", a.ID, err)
	}
	return nil
}

func (s *Store) GetAccount(id string) (*Account, error) {
	ctx := context.Background()
	var a Account
	err := s.db.QueryRowContext(ctx, `SELECT id, balance FROM accounts WHERE id = $1`, id).Scan(&a.ID, &a.Balance)
	if err != nil {
		return nil, fmt.Errorf("ledgerstore: get %s: %w", id, err)
	}
	return &a, nil
}

func (s *Store) DeleteAccount(id string) error {
	_, err := s.db.ExecContext(context.Background(), `DELETE FROM accounts WHERE id = $1`, id)
	return err
}

// Transfer bounds its own statements: silent.
func (s *Store) Transfer(from, to string, amount int64) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, from); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance + $1 WHERE id = $2`, amount, to); err != nil {
		return err
	}
	return tx.Commit()
}

// Archive is handed a context and makes a fresh one: its caller's deadline is dropped.
func (s *Store) Archive(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(context.Background(), `UPDATE accounts SET archived = true WHERE id = $1`, id) // related "ledgerstore.go:72: context.Background() has no deadline" // want `DB\.ExecContext.s context has no deadline, so a stalled database hangs this call; pass ctx, not context\.Background\(\)`
	return err
}

// Cache is generic and written the same way: its methods are one finding too.
type Cache[T any] struct {
	db    *sql.DB
	table string
}

func (c *Cache[T]) Put(key string, v []byte) error {
	_, err := c.db.ExecContext(context.Background(), `INSERT INTO cache (k, v) VALUES ($1, $2)`, key, v) // related "ledgerstore.go:83: context.Background() has no deadline" "ledgerstore.go:88: DB.ExecContext gets context.Background() too" // want `DB\.ExecContext and 1 more call in Cache.s methods get contexts without a deadline: a stalled database hangs them`
	return err
}

func (c *Cache[T]) Evict(key string) error {
	_, err := c.db.ExecContext(context.Background(), `DELETE FROM cache WHERE k = $1`, key)
	return err
}
