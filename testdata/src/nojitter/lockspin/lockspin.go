// Package lockspin applies database migrations under an advisory lock. acquireLock hands its
// context to every attempt, but goes round on any failure but one: once the context is done,
// each attempt fails at once and the loop spins. The context bounds nothing there, so its
// callers are not told to give it a deadline; the loop is the line to change.
package lockspin

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
)

const lockID = 4242

// Error is a database error with its SQLSTATE code.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// mapError returns the database error err wraps, or nil.
func mapError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

func acquireLock(ctx context.Context, conn *sql.Conn) error {
	for { // related "lockspin.go:35: retry loop" // want `retry loop goes round without waiting on every failure: once ctx is done it spins for ever`
		_, err := conn.ExecContext(ctx, `select pg_advisory_lock($1)`, lockID)
		if err == nil {
			return nil
		}
		// 55P03: lock_not_available. Terminate stale holders and try again.
		if e := mapError(err); e != nil && e.Code == "55P03" {
			log.Printf("migration lock busy (will retry): %v", err)
			_, err = conn.ExecContext(ctx, `select pg_terminate_backend(pid) from pg_locks where objid = $1 and granted`, lockID)
			if err != nil {
				conn.Close()
				return fmt.Errorf("terminate stale backends: %w", err)
			}
			continue
		}
	}
}

// ApplyAll takes the lock and applies every migration.
func ApplyAll(ctx context.Context, db *sql.DB, migrations []string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := acquireLock(ctx, conn); err != nil {
		return fmt.Errorf("get migration lock: %w", err)
	}
	for i, m := range migrations {
		if _, err := conn.ExecContext(ctx, m); err != nil {
			return fmt.Errorf("migration %d: %w", i, err)
		}
	}
	return nil
}
