// Package rowsiter streams a table's rows as an iterator. A row that does not scan is handed
// to the consumer as an error and the loop goes on to the next row: StructScan reads the row
// the rows hold, it sends nothing, and the loop walks the result set: no retry.
package rowsiter

import (
	"context"
	"iter"
	"time"

	"github.com/jmoiron/sqlx"
)

// Event is one row of the events table.
type Event struct {
	ID      int64
	Kind    string
	Payload []byte
	At      time.Time
}

// Events returns the session's events in order, with a scan error for each row that fails.
func Events(ctx context.Context, db *sqlx.DB, session int64) (iter.Seq2[Event, error], error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	rows, err := db.QueryxContext(ctx, "SELECT id, kind, payload, at FROM events WHERE session = $1 ORDER BY at", session)
	if err != nil {
		cancel()
		return nil, err
	}
	return func(yield func(Event, error) bool) {
		defer cancel()
		defer rows.Close()
		var e Event
		for rows.Next() {
			if err := rows.StructScan(&e); err != nil {
				if !yield(Event{}, err) {
					return
				}
				continue
			}
			if !yield(e, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(Event{}, err)
		}
	}, nil
}
