// Package pool connects to a database and waits inside for its first connection to settle.
package pool

import (
	"database/sql"
	"time"
)

type Pool struct{ DB *sql.DB }

// Connect opens the pool and waits for the server to settle before the first ping.
func Connect(dsn string) (*Pool, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	time.Sleep(50 * time.Millisecond)
	return &Pool{DB: db}, db.Ping()
}
