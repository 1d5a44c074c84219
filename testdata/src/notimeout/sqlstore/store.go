// Package sqlstore is a storage layer written without contexts: every database call of the
// package takes none. That is one design choice, and one finding at the first call; each
// function is not a slip of its own.
package sqlstore

import (
	"database/sql"
	"errors"
	"fmt"
	"log"
	"time"
)

type Feed struct {
	ID       int64
	URL      string
	Title    string
	Checked  time.Time
	Disabled bool
}

type Storage struct {
	db *sql.DB
}

func New(db *sql.DB) *Storage { return &Storage{db: db} }

// FeedExists reports whether the user already follows url.
func (s *Storage) FeedExists(userID int64, url string) bool {
	var ok bool
	err := s.db.QueryRow(`SELECT true FROM feeds WHERE user_id=$1 AND feed_url=$2`, userID, url).Scan(&ok) // related "store.go:40: DB.Query takes no context either" "store.go:58: DB.Exec takes no context either" "store.go:67: DB.Begin takes no context either" "store.go:71: Tx.Exec takes no context either" "store.go:75: Tx.Exec takes no context either" // want `DB\.QueryRow and 5 more calls in this package take no context: a stalled database hangs them; use their Context forms`
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		log.Printf("store: feed exists: %v", err)
	}
	return ok
}

// Feeds lists the user's feeds.
func (s *Storage) Feeds(userID int64) ([]Feed, error) {
	rows, err := s.db.Query(`SELECT id, feed_url, title, checked_at, disabled FROM feeds WHERE user_id=$1 ORDER BY title`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: unable to fetch feeds: %w", err)
	}
	defer rows.Close()
	var feeds []Feed
	for rows.Next() {
		var f Feed
		if err := rows.Scan(&f.ID, &f.URL, &f.Title, &f.Checked, &f.Disabled); err != nil {
			return nil, fmt.Errorf("store: unable to read feed: %w", err)
		}
		feeds = append(feeds, f)
	}
	return feeds, rows.Err()
}

// UpdateFeed writes back a feed after a refresh.
func (s *Storage) UpdateFeed(f *Feed) error {
	_, err := s.db.Exec(`UPDATE feeds SET title=$1, checked_at=$2, disabled=$3 WHERE id=$4`, f.Title, f.Checked, f.Disabled, f.ID)
	if err != nil {
		return fmt.Errorf("store: unable to update feed #%d: %w", f.ID, err)
	}
	return nil
}

// RemoveFeed deletes a feed and its entries in one transaction.
func (s *Storage) RemoveFeed(userID, feedID int64) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	if _, err := tx.Exec(`DELETE FROM entries WHERE feed_id=$1`, feedID); err != nil {
		tx.Rollback()
		return fmt.Errorf("store: unable to delete entries: %w", err)
	}
	if _, err := tx.Exec(`DELETE FROM feeds WHERE id=$1 AND user_id=$2`, feedID, userID); err != nil {
		tx.Rollback()
		return fmt.Errorf("store: unable to delete feed #%d: %w", feedID, err)
	}
	return tx.Commit()
}
