// Package usesqlwrap calls the context-free forms of sqlwrap's API.
package usesqlwrap

import (
	"context"

	"notimeout/sqlwrap"
)

// ---- Reported ----

func list(db *sqlwrap.DB) {
	db.Queryx("SELECT 1") // want `DB.Queryx takes no context, and sql.DB.Query inside it \(sqlwrap.go:17\) has none: a stalled database blocks this call forever; use QueryxContext with a context that has a deadline`
}

func load(ctx context.Context, db *sqlwrap.DB) {
	db.Loads(7) // want `DB.Loads takes no context, and sql.DB.Query inside it \(sqlwrap.go:42\) has none: a stalled database blocks this call forever; use LoadsContext with ctx`
}

func begin(db *sqlwrap.DB) {
	db.Beginx() // want `DB.Beginx takes no context, and sql.DB.Begin inside it \(sqlwrap.go:25\) has none`
}

// ---- Not reported ----

func listWithCallersContext(ctx context.Context, db *sqlwrap.DB) {
	db.QueryxContext(ctx, "SELECT 1")
}

// A context-free form of the same API: its own callers are the ones to check.
func Queryx(db *sqlwrap.DB, q string) {
	db.Queryx(q)
}
