// Package sqlout is an output plugin that writes lines to a database. Its methods implement a
// context-less interface: a call that takes no context is its callers' to bound, but a call it
// hands a context.Background() of its own making could be given a deadline right there, as its
// helper gives the inserts.
package sqlout

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"pluginapi"
)

var _ pluginapi.Output = (*Table)(nil)

type Table struct {
	DSN     string
	Name    string
	Timeout time.Duration

	db *sql.DB
}

func (t *Table) Connect() error {
	db, err := sql.Open("postgres", t.DSN)
	if err != nil {
		return err
	}
	t.db = db
	return nil
}

func (t *Table) Write(lines []string) error {
	ctx := context.Background()
	tx, err := t.db.BeginTx(ctx, nil) // related "sqlout.go:36: context.Background() has no deadline" // want `DB\.BeginTx's context has no deadline, so a stalled database hangs this call; use context\.WithTimeout`
	if err != nil {
		return fmt.Errorf("sqlout: begin: %w", err)
	}
	defer tx.Rollback()
	for _, l := range lines {
		if err := t.insert(ctx, tx, l); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// insert gives each insert a deadline.
func (t *Table) insert(ctx context.Context, tx *sql.Tx, line string) error {
	ctx, cancel := context.WithTimeout(ctx, t.Timeout)
	defer cancel()
	if _, err := tx.ExecContext(ctx, "INSERT INTO "+t.Name+" (line) VALUES ($1)", line); err != nil {
		return fmt.Errorf("sqlout: insert: %w", err)
	}
	return nil
}

func (t *Table) Close() error {
	// No context to give: the interface decides.
	_, err := t.db.Exec("DELETE FROM " + t.Name + "_leases WHERE owner = current_user")
	if err != nil {
		return err
	}
	return t.db.Close()
}
