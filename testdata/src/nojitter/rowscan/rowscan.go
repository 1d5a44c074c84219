// Package rowscan looks up access tokens stored as JSON in a settings table.
package rowscan

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
)

type token struct {
	Hash string `json:"hash"`
	Name string `json:"name"`
}

type tokenSet struct {
	Tokens []token `json:"tokens"`
}

// ---- Not reported: a walk over the rows a query returns, skipping malformed ones ----

// OwnerOf returns the user whose stored tokens include hash. A row that does not scan or does
// not decode is skipped: each round reads the next row, nothing is tried again.
func OwnerOf(ctx context.Context, db *sql.DB, hash string) (int32, error) {
	rows, err := db.QueryContext(ctx, `SELECT user_id, value FROM user_setting WHERE key = 'TOKENS'`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var userID int32
		var raw string
		if err := rows.Scan(&userID, &raw); err != nil {
			continue
		}
		var set tokenSet
		if err := json.Unmarshal([]byte(raw), &set); err != nil {
			slog.Warn("skipping malformed token set", "user", userID, "err", err)
			continue
		}
		for _, t := range set.Tokens {
			if t.Hash == hash {
				return userID, nil
			}
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New("no such token")
}

// ---- Reported: the same statement tried again at once ----

// Revoke deletes a user's token rows, up to three times.
func Revoke(ctx context.Context, db *sql.DB, userID int32) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // related "rowscan.go:59: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		_, err = db.ExecContext(ctx, `DELETE FROM user_setting WHERE key = 'TOKENS' AND user_id = $1`, userID)
		if err == nil {
			return nil
		}
		slog.Warn("revoking tokens", "user", userID, "attempt", attempt, "err", err)
	}
	return err
}
