// Package sqlite3 is a stub of github.com/mattn/go-sqlite3, a database/sql driver for SQLite.
package sqlite3

type SQLiteDriver struct{}

// ErrNo is an SQLite result code.
type ErrNo int

// Error is the error the driver returns.
type Error struct {
	Code ErrNo
}

func (e Error) Error() string { return "sqlite3: error" }
