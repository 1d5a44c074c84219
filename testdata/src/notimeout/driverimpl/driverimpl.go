// Package driverimpl implements driver.Driver over database/sql.
package driverimpl

import (
	"context"
	"database/sql"

	driver "github.com/golang-migrate/migrate/database"
)

type Postgres struct {
	db   *sql.DB
	conn *sql.Conn
}

var _ driver.Driver = (*Postgres)(nil)

// ---- Not reported: the interface gives these methods no context ----

func (p *Postgres) Lock() error {
	_, err := p.conn.ExecContext(context.Background(), "SELECT pg_advisory_lock(1)")
	return err
}

func (p *Postgres) Unlock() error {
	return p.release()
}

// release is called only from Unlock.
func (p *Postgres) release() error {
	_, err := p.db.Exec("SELECT pg_advisory_unlock(1)")
	return err
}

func (p *Postgres) Version() (v int, err error) {
	err = p.db.QueryRow("SELECT version FROM schema_migrations").Scan(&v)
	return v, err
}

// ---- Reported ----

// An exported constructor could take a context.
func WithInstance(db *sql.DB) (*Postgres, error) {
	p := &Postgres{db: db}
	if err := p.ensureTable(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Postgres) ensureTable() error {
	_, err := p.db.Exec("CREATE TABLE IF NOT EXISTS schema_migrations (version bigint)") // want `DB\.Exec takes no context, so a stalled database hangs this call; use ExecContext and context\.WithTimeout`
	return err
}

// Not part of the interface: it could take a context.
func (p *Postgres) Drop() error {
	_, err := p.conn.ExecContext(context.Background(), "DROP TABLE schema_migrations") // related "driverimpl.go:58: context.Background() has no deadline" // want `Conn\.ExecContext's context has no deadline, so a stalled database hangs this call; use context\.WithTimeout`
	return err
}
