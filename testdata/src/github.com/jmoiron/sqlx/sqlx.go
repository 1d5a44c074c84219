// Package sqlx is a stub of github.com/jmoiron/sqlx (v1.4.0, public signatures only).
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ *sql.DB }
type Tx struct{ *sql.Tx }
type Rows struct{ *sql.Rows }
type Row struct{}
type Stmt struct{ *sql.Stmt }
type NamedStmt struct{}

type Queryer interface {
	Query(query string, args ...any) (*sql.Rows, error)
	Queryx(query string, args ...any) (*Rows, error)
	QueryRowx(query string, args ...any) *Row
}

type QueryerContext interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryxContext(ctx context.Context, query string, args ...any) (*Rows, error)
	QueryRowxContext(ctx context.Context, query string, args ...any) *Row
}

func Open(driverName, dataSourceName string) (*DB, error)    { return &DB{}, nil }
func Connect(driverName, dataSourceName string) (*DB, error) { return &DB{}, nil }

// Get and Select run the query through the database/sql handle they embed, as sqlx does.
func (db *DB) Get(dest any, query string, args ...any) error {
	rows, err := db.DB.Query(query, args...)
	if err != nil {
		return err
	}
	return rows.Close()
}
func (db *DB) Select(dest any, query string, args ...any) error {
	rows, err := db.DB.Query(query, args...)
	if err != nil {
		return err
	}
	return rows.Close()
}
func (db *DB) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return nil
}
func (db *DB) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return nil
}
func (db *DB) Queryx(query string, args ...any) (*Rows, error)                { return nil, nil }
func (db *DB) QueryRowx(query string, args ...any) *Row                       { return nil }
func (db *DB) NamedExec(query string, arg any) (sql.Result, error)            { return nil, nil }
func (db *DB) MustExec(query string, args ...any) sql.Result                  { return nil }
func (db *DB) Beginx() (*Tx, error)                                           { return &Tx{}, nil }
func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) { return &Tx{}, nil }
func (db *DB) NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error) {
	return nil, nil
}

func (tx *Tx) Get(dest any, query string, args ...any) error { return nil }
func (tx *Tx) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return nil
}
func (tx *Tx) NamedExec(query string, arg any) (sql.Result, error) { return nil, nil }

func (r *Row) Scan(dest ...any) error { return nil }

func Get(q Queryer, dest any, query string, args ...any) error { return nil }
func GetContext(ctx context.Context, q QueryerContext, dest any, query string, args ...any) error {
	return nil
}

// QueryxContext and StructScan run through the database/sql handle they embed, as sqlx does.
func (db *DB) QueryxContext(ctx context.Context, query string, args ...any) (*Rows, error) {
	rows, err := db.DB.QueryContext(ctx, query, args...)
	return &Rows{rows}, err
}
func (r *Rows) StructScan(dest any) error { return r.Rows.Scan(dest) }
