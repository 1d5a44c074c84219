// Package sqlwrap wraps database/sql with both the context-free and the context forms of
// its API, like sqlx: the context-free forms are not reported, their callers are.
package sqlwrap

import (
	"context"
	"database/sql"
)

type DB struct {
	*sql.DB
}

// ---- Not reported: the context-free forms of the API ----

func (db *DB) Queryx(query string, args ...any) (*sql.Rows, error) {
	return db.DB.Query(query, args...)
}

func (db *DB) QueryxContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.DB.QueryContext(ctx, query, args...)
}

func (db *DB) Beginx() (*sql.Tx, error) {
	return db.DB.Begin()
}

func (db *DB) MustBegin() *sql.Tx {
	tx, err := db.Beginx()
	if err != nil {
		panic(err)
	}
	return tx
}

func (db *DB) Exec(query string, args ...any) (sql.Result, error) {
	return db.DB.Exec(query, args...)
}

// Loads has a context form, LoadsContext.
func (db *DB) Loads(id int) error {
	_, err := db.DB.Query("SELECT * FROM loads WHERE id = $1", id)
	return err
}

func (db *DB) LoadsContext(ctx context.Context, id int) error {
	_, err := db.DB.QueryContext(ctx, "SELECT * FROM loads WHERE id = $1", id)
	return err
}

// ---- Reported: business functions are not API forms ----

func (db *DB) QueryUsers() (*sql.Rows, error) {
	return db.DB.Query("SELECT * FROM users") // related "sqlwrap.go:64: DB.Exec takes no context either" // want `DB\.Query and 1 more call in this package take no context: a stalled database hangs them; use their Context forms`
}

// Repo is a repository whose methods happen to be named like database/sql's: the name is no
// reason, each writes its own statement.
type Repo struct {
	db *sql.DB
}

func (r *Repo) Exec(id int) error {
	_, err := r.db.Exec("DELETE FROM sessions WHERE id = $1", id)
	return err
}
