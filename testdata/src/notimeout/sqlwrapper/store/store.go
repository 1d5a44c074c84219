// Package store writes rows through sqlwrapper's context-free forms, by design: its functions
// take no context. Its calls are one finding for the package, the wrapper's Begin (whose context form
// BeginTx its embedded *sql.DB has) among them.
package store

import (
	"fmt"

	"notimeout/sqlwrapper"
)

type Store struct {
	db sqlwrapper.DB
}

// ---- Reported: one finding for the package's calls without a context ----

func (s *Store) Insert(table string, id int64) error {
	tx, err := s.db.Begin() // related "store.go:23: Tx.Exec takes no context either", "store.go:31: DB.Query takes no context either" // want `DB\.Begin and 2 more calls in this package take no context: a stalled database hangs them; use their Context forms`
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if _, err := tx.Exec("INSERT INTO "+table+" (id) VALUES (?)", id); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("insert into %s: %w", table, err)
	}
	return tx.Commit()
}

func (s *Store) Count(table string) (int, error) {
	rows, err := s.db.Query("SELECT COUNT(*) FROM " + table)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return 0, err
		}
	}
	return n, rows.Err()
}
