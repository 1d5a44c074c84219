// Package fields retries with counters and delays kept in struct fields, as a service's
// storage layer does while its database comes up.
package fields

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"math/rand/v2"
	"time"

	"nojitter/pool"
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
		time.Sleep(pg.connTimeout) // related "fields.go:27: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		pg.connAttempts--
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: no attempts left: %w", err)
	}
	return pg, nil
}

// ---- Not reported: the attempt waits inside (another package's), the loop with jitter ----

func OpenJittered(dsn string, jitter func(time.Duration) time.Duration) (*pool.Pool, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var p *pool.Pool
		if p, err = pool.Connect(dsn); err == nil {
			return p, nil
		}
		log.Printf("connect: %v", err)
		time.Sleep(jitter(time.Second))
	}
	return nil, err
}

// ---- Not reported: the attempt sleeps the jittered backoff itself before a retry ----

func (pg *Postgres) process(ctx context.Context, q string, attempt int) (bool, error) {
	if attempt > 0 {
		time.Sleep(time.Duration(rand.Int64N(int64(100*time.Millisecond) << attempt)))
	}
	_, err := pg.DB.ExecContext(ctx, q)
	return err != nil, err
}

func (pg *Postgres) Exec(ctx context.Context, q string) error {
	var err error
	for attempt := 0; attempt <= 3; attempt++ {
		var retry bool
		if retry, err = pg.process(ctx, q, attempt); err == nil || !retry {
			return err
		}
	}
	return err
}

// ---- Reported: the field is read, never stepped ----

func (pg *Postgres) Reconnect(ctx context.Context, dsn string) error {
	var err error
	for pg.connAttempts > 0 { // related "fields.go:84: retry loop" // want `retry loop retries for ever: no attempt cap, and it ignores ctx`
		if pg.DB, err = sql.Open("pgx", dsn); err == nil {
			if err = pg.DB.Ping(); err == nil {
				return nil
			}
		}
		log.Printf("reconnect: %v", err)
		time.Sleep(pg.connTimeout) // related "fields.go:84: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}
