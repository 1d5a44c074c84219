// Package sessiontimeout re-encrypts columns inside a transaction whose first statement sets
// the server's statement timeout: every later statement of the session is bounded by it,
// whatever context it is given.
package sessiontimeout

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
)

// lockTable bounds the session's statements and takes the table's lock.
func lockTable(ctx context.Context, tx *sql.Tx, table string, timeoutSeconds int) error {
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET statement_timeout = '%ds';", timeoutSeconds)); err != nil {
		return fmt.Errorf("set statement timeout: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("LOCK TABLE %s IN ACCESS EXCLUSIVE MODE;", table)); err != nil {
		return fmt.Errorf("lock %s: %w", table, err)
	}
	return nil
}

func encrypted(ctx context.Context, tx *sql.Tx, table string) (bool, error) {
	var done bool
	err := tx.QueryRowContext(ctx, fmt.Sprintf("SELECT is_encrypted FROM %s LIMIT 1;", table)).Scan(&done)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return done, err
}

// Rotate: the statements after lockTable have the session's statement timeout and are not
// reported; the transaction's start, before it, is.
func Rotate(db *sql.DB, log *slog.Logger, tables []string, key string, timeout int) error {
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil) // related "rotate.go:36: context.Background() has no deadline" // want `DB\.BeginTx's context has no deadline, so a stalled database hangs this call; use context\.WithTimeout`
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, table := range tables {
		if err := lockTable(ctx, tx, table, timeout); err != nil {
			return err
		}
		done, err := encrypted(ctx, tx, table)
		if err != nil {
			return err
		}
		if done {
			log.Info("already encrypted", "table", table)
			continue
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET secret = pgp_sym_encrypt(secret, $1), is_encrypted = TRUE;", table), key); err != nil {
			return fmt.Errorf("encrypt %s: %w", table, err)
		}
	}
	return tx.Commit()
}

// ---- Reported: no statement timeout, no deadline ----

func Revert(db *sql.DB, tables []string, key string) error {
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil) // related "rotate.go:64: context.Background() has no deadline", "rotate.go:71: encrypted gets context.Background() too", "rotate.go:74: Tx.ExecContext gets context.Background() too" // want `DB\.BeginTx and 2 more calls get contexts without a deadline, so a stalled database hangs them; use context\.WithTimeout`
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, table := range tables {
		if done, err := encrypted(ctx, tx, table); err != nil || !done {
			return err
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET secret = pgp_sym_decrypt(secret, $1), is_encrypted = FALSE;", table), key); err != nil {
			return err
		}
	}
	return tx.Commit()
}
