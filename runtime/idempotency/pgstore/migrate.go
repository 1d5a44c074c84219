package pgstore

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migration is one embedded schema migration.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Migrations returns the embedded migrations in order (for tools that manage schemas themselves;
// Migrate applies them).
func Migrations() ([]Migration, error) {
	entries, err := fs.ReadDir(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("pgstore: migration %s: name must start with a number and _", e.Name())
		}
		b, err := migrations.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	slices.SortFunc(ms, func(a, b Migration) int { return a.Version - b.Version })
	return ms, nil
}

// Migrate brings the schema (in the first schema of the search_path) to the current version. It
// is safe to run from several processes at once, whatever the database's default isolation: it
// holds a transaction-scoped advisory lock, runs at READ COMMITTED (so that it sees what the
// process before it migrated), and the pending migrations and their entries in
// idempotency_schema_migrations commit together.
func (s *Store) Migrate(ctx context.Context) error {
	ms, err := Migrations()
	if err != nil {
		return err
	}
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	defer tx.Rollback(ctx)
	// Each statement must see what the holder of the lock before this one committed: under
	// REPEATABLE READ or SERIALIZABLE the transaction's snapshot would be taken before the wait
	// for the lock, and the first migration would run again.
	if _, err := tx.Exec(ctx, `SET TRANSACTION ISOLATION LEVEL READ COMMITTED`); err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('idemlint/pgstore/migrate/' || current_schema()))`); err != nil {
		return fmt.Errorf("pgstore: migrate: lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS idempotency_schema_migrations (
    version    integer     PRIMARY KEY,
    name       text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)`); err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	var current int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM idempotency_schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	for _, m := range ms {
		if m.Version <= current {
			continue
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return fmt.Errorf("pgstore: migration %s: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO idempotency_schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
			return fmt.Errorf("pgstore: migration %s: %w", m.Name, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	return nil
}
