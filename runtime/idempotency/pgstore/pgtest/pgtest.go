// Package pgtest gives tests an isolated PostgreSQL schema in the test database.
//
// The database comes from IDEMLINT_PG_DSN (./scripts/test starts a throw-away cluster and sets
// it). When the variable is unset, tests that need PostgreSQL are skipped with a loud message, or
// fail when CI=true. Each test gets its own schema with a random name, dropped when the test
// ends, so tests in parallel packages of `go test ./...` never see each other's rows.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// EnvDSN is the environment variable that holds the test database's DSN.
const EnvDSN = "IDEMLINT_PG_DSN"

var warnOnce sync.Once

// DSN returns the test database's DSN. Without one it skips the test, loudly, or fails it when
// CI=true (CI must run the PostgreSQL tests).
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if dsn != "" {
		return dsn
	}
	msg := "PostgreSQL tests need " + EnvDSN + " (a postgres:// DSN of a database they may create schemas in); " +
		"./scripts/test starts a throw-away PostgreSQL and sets it"
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not set and CI=true: %s", EnvDSN, msg)
	}
	warnOnce.Do(func() {
		fmt.Fprintf(os.Stderr, "\n*** SKIPPING POSTGRESQL TESTS: %s is not set. %s ***\n\n", EnvDSN, msg)
	})
	t.Skipf("SKIPPED: %s is not set. %s", EnvDSN, msg)
	return ""
}

// Schema creates a schema with a random name in the test database, drops it (with everything in
// it) when the test ends, and returns a DSN whose search_path is that schema.
func Schema(t testing.TB) string {
	t.Helper()
	base := DSN(t)
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	schema := "idemlint_test_" + hex.EncodeToString(b[:])
	exec(t, base, "CREATE SCHEMA "+schema)
	t.Cleanup(func() {
		exec(t, base, "DROP SCHEMA "+schema+" CASCADE")
	})
	dsn, err := WithSearchPath(base, schema)
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}

// WithSearchPath returns dsn (URL or keyword/value form) with its search_path set to schema.
func WithSearchPath(dsn, schema string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("pgtest: parsing %s: %w", EnvDSN, err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	return dsn + " search_path=" + schema, nil
}

func exec(t testing.TB, dsn, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("pgtest: connecting to the test database: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("pgtest: %s: %v", sql, err)
	}
}

// Pool returns a pool on dsn, closed when the test ends. configure, if given, adjusts the
// pool's configuration first (a tracer, pool size).
func Pool(t testing.TB, dsn string, configure ...func(*pgxpool.Config)) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	for _, c := range configure {
		c(cfg)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}
