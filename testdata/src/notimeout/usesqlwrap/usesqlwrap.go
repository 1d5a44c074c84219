// Package usesqlwrap calls the context-free forms of sqlwrap's API.
package usesqlwrap

import (
	"context"

	"notimeout/sqlwrap"
)

// ---- Reported ----

func list(db *sqlwrap.DB) {
	db.Queryx("SELECT 1") // related "sqlwrap.go:16: DB.Queryx calls DB.Query without a context" // want `DB\.Queryx takes no context, so a stalled database hangs this call; use QueryxContext and context\.WithTimeout`
}

func load(ctx context.Context, db *sqlwrap.DB) {
	db.Loads(7) // related "sqlwrap.go:41: DB.Loads calls DB.Query without a context" // want `DB\.Loads takes no context, so a stalled database hangs this call; use LoadsContext with ctx`
}

func begin(db *sqlwrap.DB) {
	db.Beginx() // related "sqlwrap.go:24: DB.Beginx calls DB.Begin without a context" // want `DB\.Beginx calls DB\.Begin without a context, so a stalled database hangs this call; make it take one`
}

// ---- Not reported ----

func listWithCallersContext(ctx context.Context, db *sqlwrap.DB) {
	db.QueryxContext(ctx, "SELECT 1")
}

// A context-free form of the same API: its own callers are the ones to check.
func Queryx(db *sqlwrap.DB, q string) {
	db.Queryx(q)
}
