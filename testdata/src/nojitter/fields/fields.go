// Package fields retries with counters and delays kept in struct fields, as a service's
// storage layer does while its database comes up.
package fields

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"time"
)

type Postgres struct {
	DB           *sql.DB
	connAttempts int
	connTimeout  time.Duration
}

// ---- Reported: the field counts the attempts, the wait is fixed ----

func Open(dsn string) (*Postgres, error) {
	pg := &Postgres{connAttempts: 10, connTimeout: time.Second}
	var err error
	for pg.connAttempts > 0 {
		pg.DB, err = sql.Open("pgx", dsn)
		if err == nil {
			if err = pg.DB.Ping(); err == nil {
				break
			}
		}
		log.Printf("postgres is trying to connect, attempts left: %d: %v", pg.connAttempts, err)
		time.Sleep(pg.connTimeout) // want `retry loop waits a fixed delay between attempts`
		pg.connAttempts--
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: no attempts left: %w", err)
	}
	return pg, nil
}

// dial waits for the server to settle inside the attempt: that wait is part of the attempt,
// not a wait between attempts.
func dial(dsn string) (*sql.DB, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	time.Sleep(50 * time.Millisecond)
	return db, db.Ping()
}

// ---- Not reported: the attempt waits inside, the loop with jitter ----

func OpenJittered(dsn string, jitter func(time.Duration) time.Duration) (*sql.DB, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var db *sql.DB
		if db, err = dial(dsn); err == nil {
			return db, nil
		}
		log.Printf("dial: %v", err)
		time.Sleep(jitter(time.Second))
	}
	return nil, err
}

// ---- Reported: the field is read, never stepped ----

func (pg *Postgres) Reconnect(ctx context.Context, dsn string) error {
	var err error
	for pg.connAttempts > 0 { // want `retry loop has no attempt cap and no deadline` `retry loop does not observe ctx`
		if pg.DB, err = sql.Open("pgx", dsn); err == nil {
			return nil
		}
		log.Printf("reconnect: %v", err)
		time.Sleep(pg.connTimeout) // want `retry loop waits a fixed delay between attempts`
	}
	return err
}
