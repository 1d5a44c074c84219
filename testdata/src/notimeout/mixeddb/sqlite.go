// Package mixeddb stores bookmarks in SQLite or in MySQL: one backend per file.
package mixeddb

import (
	"database/sql"
	"fmt"

	_ "github.com/mattn/go-sqlite3"
)

type sqliteStore struct {
	db *sql.DB
}

func openSQLite(path string) (*sqliteStore, error) {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &sqliteStore{db: db}, nil
}

// ---- Not reported: SQLite runs in the process ----

func (s *sqliteStore) Count() (int, error) {
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM bookmarks`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	return n, nil
}

func (s *sqliteStore) Vacuum() error {
	if _, err := s.db.Exec(`VACUUM`); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	return nil
}
