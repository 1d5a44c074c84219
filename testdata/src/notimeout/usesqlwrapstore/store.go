// Package usesqlwrapstore is a storage layer written without contexts, through both
// database/sql and the context-free forms of a wrapper library (sqlwrap, as sqlx's Stmt.Get):
// one design, one finding for the package.
package usesqlwrapstore

import (
	"database/sql"
	"errors"
	"fmt"
	"log/slog"

	"notimeout/sqlwrap"
)

type Subscriber struct {
	ID    int64
	Email string
	State string
}

type Store struct {
	db  *sql.DB
	x   *sqlwrap.DB
	log *slog.Logger
}

func (s *Store) Subscriber(id int64) (*Subscriber, error) {
	rows, err := s.x.Queryx("SELECT id, email, state FROM subscribers WHERE id = $1", id) // related "store.go:44: DB.Query takes no context either", "store.go:71: DB.Exec takes no context either" // want `DB\.Queryx and 2 more calls in this package take no context: a stalled database hangs them; use their Context forms`
	if err != nil {
		return nil, fmt.Errorf("subscriber %d: %w", id, err)
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, errors.New("subscriber not found")
	}
	var sub Subscriber
	if err := rows.Scan(&sub.ID, &sub.Email, &sub.State); err != nil {
		return nil, err
	}
	return &sub, rows.Err()
}

func (s *Store) Blocklisted() ([]Subscriber, error) {
	rows, err := s.db.Query("SELECT id, email, state FROM subscribers WHERE state = 'blocklisted'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Subscriber
	for rows.Next() {
		var sub Subscriber
		if err := rows.Scan(&sub.ID, &sub.Email, &sub.State); err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

// TouchLoad hands its argument straight to the library: a context-free form of Loads, whose
// callers are the ones to check.
func (s *Store) TouchLoad(id int) error {
	if err := s.x.Loads(id); err != nil {
		s.log.Warn("load", "id", id, "err", err)
		return err
	}
	return nil
}

func (s *Store) Unsubscribe(id int64) error {
	res, err := s.db.Exec("UPDATE subscribers SET state = 'unsubscribed' WHERE id = $1", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("subscriber not found")
	}
	return nil
}
