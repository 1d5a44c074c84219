// Package sqlwrapper mirrors database/sql's API on a value type that annotates statements: its
// context-free methods are forms its callers choose, as database/sql's are; a function of its own
// that calls one without a context, where it could take one, is reported.
package sqlwrapper

import (
	"context"
	sqlorig "database/sql"
	"fmt"
)

type DB struct {
	*sqlorig.DB
	Marginalia string
}

type Tx struct {
	*sqlorig.Tx
	marginalia string
}

// ---- Not reported: thin forms of database/sql's API ----

func (db DB) Query(query string, args ...interface{}) (*sqlorig.Rows, error) {
	return db.DB.Query(query, args...)
}

func (db DB) QueryRow(query string, args ...interface{}) *sqlorig.Row {
	return db.DB.QueryRow(query, args...)
}

func (db DB) QueryRowContext(ctx context.Context, query string, args ...interface{}) *sqlorig.Row {
	return db.DB.QueryRowContext(ctx, query, args...)
}

func (db DB) Begin() (*Tx, error) {
	tx, err := db.DB.Begin()
	return &Tx{tx, db.Marginalia}, err
}

// ---- Reported ----

func (db DB) QueryMySQLVersion() (string, error) {
	var version string
	err := db.QueryRow("SELECT @@version").Scan(&version) // related "sqlwrapper.go:28: DB.QueryRow calls DB.QueryRow without a context" // want `DB\.QueryRow takes no context, so a stalled database hangs this call; use QueryRowContext and context\.WithTimeout`
	if err != nil {
		return "", fmt.Errorf("failed to get MySQL version: %v", err)
	}
	return version, nil
}
