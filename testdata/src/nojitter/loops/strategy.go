package loops

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"example.com/waitstrategy"
)

// Statements retried on a busy database, waiting through a strategy function a library made:
// the loop waits (how, the library's function says); it does not go round at once.

var errBusy = errors.New("database is locked")

type sqlStore struct {
	db    *sql.DB
	retry func(error) bool
}

func (s *sqlStore) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	wait := waitstrategy.Backoff(waitstrategy.Linear(100 * time.Millisecond))
	var res sql.Result
	var err error
	for tries := 0; tries < 20; tries++ {
		res, err = s.db.ExecContext(ctx, query, args...)
		if err != nil && s.retry != nil && s.retry(err) {
			log.Printf("exec (try %d): %v", tries, err)
			wait(uint(tries))
			continue
		}
		return res, err
	}
	return res, err
}

// execLimited calls a strategy that only counts: it does not wait, and the loop goes round at
// once.
func (s *sqlStore) execLimited(ctx context.Context, query string) error {
	more := waitstrategy.Limit(5)
	var err error
	for tries := uint(0); more(tries); tries++ { // related "strategy.go:44: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		_, err = s.db.ExecContext(ctx, query)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errBusy) && (s.retry == nil || !s.retry(err)) {
			return err
		}
	}
	return err
}
