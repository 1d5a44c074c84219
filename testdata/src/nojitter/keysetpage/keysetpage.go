// Package keysetpage migrates a table of stored deliveries, page by page, inside one
// transaction.
package keysetpage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"
)

const pageSize = 500

type delivery struct {
	ID      string
	Updated time.Time
	Payload []byte
	Project string
}

type payload struct {
	Project struct {
		ID string `json:"id"`
	} `json:"project"`
}

type Store struct {
	db  *sql.DB
	log *slog.Logger
}

func (s *Store) page(ctx context.Context, tx *sql.Tx, after string) (*sql.Rows, error) {
	return tx.QueryContext(ctx, `SELECT id, updated, payload FROM delivery WHERE id > $1 ORDER BY id LIMIT $2`, after, pageSize)
}

// ---- Not reported: keyset pagination; every error leaves, a short page ends the walk ----

// MigrateProjects fills delivery.project from each stored payload. The outer loop reads the
// next page after the last id seen; rows.Next() walks what one query returned, its "false" is
// the end of the page, not a failed query tried again.
func (s *Store) MigrateProjects(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()

	var lastID string
	more := true
	for more {
		rows, err := s.page(ctx, tx, lastID)
		if err != nil {
			return fmt.Errorf("read page after %q: %w", lastID, err)
		}
		var batch []delivery
		for rows.Next() {
			var d delivery
			if err := rows.Scan(&d.ID, &d.Updated, &d.Payload); err != nil {
				rows.Close()
				return fmt.Errorf("scan: %w", err)
			}
			var p payload
			if err := json.Unmarshal(d.Payload, &p); err != nil {
				rows.Close()
				return fmt.Errorf("decode delivery %s: %w", d.ID, err)
			}
			d.Project = p.Project.ID
			batch = append(batch, d)
			lastID = d.ID
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("rows: %w", err)
		}
		rows.Close()
		for _, d := range batch {
			if _, err := tx.ExecContext(ctx, `UPDATE delivery SET project = $1 WHERE id = $2`, d.Project, d.ID); err != nil {
				return fmt.Errorf("update %s: %w", d.ID, err)
			}
		}
		s.log.Info("migrated page", "rows", len(batch), "last", lastID)
		more = len(batch) == pageSize
	}
	return tx.Commit()
}

// ---- Reported: a worker that goes round at once when its query fails ----

// Sweep deletes expired deliveries until ctx ends. When the database is down the query fails
// and the loop asks again at once.
func (s *Store) Sweep(ctx context.Context) {
	for ctx.Err() == nil { // related "keysetpage.go:93: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		rows, err := s.db.QueryContext(ctx, `DELETE FROM delivery WHERE updated < now() - interval '30 days' RETURNING id`)
		if err != nil {
			s.log.Error("sweep", "err", err)
			continue
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		s.log.Info("swept", "rows", n)
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute):
		}
	}
}
