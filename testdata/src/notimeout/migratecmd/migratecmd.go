// Package migratecmd is a migration tool's library and command. Run dispatches a command: the
// ones that change the schema run in a transaction on the database they are given; "create"
// and "fix" only write files and take no database. A command line that runs "create" with a
// nil database reaches no database call, whatever its context; one that runs "up" with
// context.Background() can hang on a stalled database.
package migratecmd

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"
)

type Migration struct {
	Version int64
	Up      string
}

func Run(ctx context.Context, command string, db *sql.DB, dir string, args ...string) error {
	switch command {
	case "up":
		return up(ctx, db, dir)
	case "status":
		return status(ctx, db)
	case "create":
		if len(args) == 0 {
			return errors.New("migratecmd: create: name missing")
		}
		return create(dir, args[0])
	case "fix":
		return fix(dir)
	}
	return fmt.Errorf("migratecmd: unknown command %q", command)
}

func up(ctx context.Context, db *sql.DB, dir string) error {
	ms, err := load(dir)
	if err != nil {
		return err
	}
	for _, m := range ms {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migratecmd: begin %d: %w", m.Version, err)
		}
		if _, err := tx.ExecContext(ctx, m.Up); err != nil {
			tx.Rollback()
			return fmt.Errorf("migratecmd: apply %d: %w", m.Version, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, m.Version); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

func status(ctx context.Context, db *sql.DB) error {
	var v int64
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return err
	}
	fmt.Println("version", v)
	return nil
}

func load(dir string) ([]Migration, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for i, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: int64(i + 1), Up: string(b)})
	}
	return ms, nil
}

func create(dir, name string) error {
	path := filepath.Join(dir, time.Now().UTC().Format("20060102150405")+"_"+name+".sql")
	return os.WriteFile(path, []byte("-- +migrate Up\n"), 0o644)
}

func fix(dir string) error {
	_, err := os.Stat(dir)
	return err
}

// Main is the command line.
func Main() {
	dir := flag.String("dir", ".", "migrations directory")
	dsn := flag.String("dsn", os.Getenv("DATABASE_URL"), "database")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		log.Fatal("usage: migrate [create NAME | fix | up | status]")
	}
	ctx := context.Background()
	switch args[0] {
	case "create":
		if err := Run(ctx, "create", nil, *dir, args[1:]...); err != nil {
			log.Fatalf("migrate: %v", err)
		}
		return
	case "fix":
		if err := Run(ctx, "fix", nil, *dir); err != nil {
			log.Fatalf("migrate: %v", err)
		}
		return
	}
	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		log.Fatalf("migrate: %v", err)
	}
	defer db.Close()
	if err := Run(ctx, args[0], db, *dir, args[1:]...); err != nil { // related "migratecmd.go:25: Run passes its context to DB.BeginTx" "migratecmd.go:111: context.Background() has no deadline" // want `Run passes a context without a deadline to DB\.BeginTx, so a stalled database hangs this call`
		log.Fatalf("migrate: %v", err)
	}
}

// Options holds the database a cleanup runs on; a nil *Options means the package's default.
type Options struct {
	DB *sql.DB
}

var defaultDB *sql.DB

func (o *Options) database() *sql.DB {
	if o == nil || o.DB == nil {
		return defaultDB
	}
	return o.DB
}

func Cleanup(ctx context.Context, o *Options) error {
	_, err := o.database().ExecContext(ctx, `DELETE FROM schema_locks WHERE expires_at < now()`)
	return err
}

// Nightly cleans up on the default database: a nil *Options still reaches it.
func Nightly() error {
	return Cleanup(context.Background(), nil) // related "migratecmd.go:148: Cleanup passes its context to DB.ExecContext" "migratecmd.go:155: context.Background() has no deadline" // want `Cleanup passes a context without a deadline to DB\.ExecContext, so a stalled database hangs this call`
}
