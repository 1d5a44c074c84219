// Package sqlite3 is a stub of github.com/mattn/go-sqlite3, a database/sql driver for SQLite.
package sqlite3

type SQLiteDriver struct{}
