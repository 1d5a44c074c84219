// Package embeddedsqlx keeps a conversation history in SQLite through sqlx: the database is a
// file this process opens, with no peer that can stall.
package embeddedsqlx

import (
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	sqlite "github.com/mattn/go-sqlite3"
)

type Conversation struct {
	ID        string    `db:"id"`
	Title     string    `db:"title"`
	UpdatedAt time.Time `db:"updated_at"`
}

type historyDB struct {
	db *sqlx.DB
}

func openHistory(path string) (*historyDB, error) {
	db, err := sqlx.Open("sqlite3", path)
	if err != nil {
		var se sqlite.Error
		if errors.As(err, &se) {
			return nil, fmt.Errorf("open history: sqlite error %d: %w", se.Code, err)
		}
		return nil, fmt.Errorf("open history: %w", err)
	}
	return &historyDB{db: db}, nil
}

// ---- Not reported: sqlx's context-free forms over an embedded database ----

func (h *historyDB) Find(id string) (*Conversation, error) {
	var c Conversation
	if err := h.db.Get(&c, `SELECT id, title, updated_at FROM conversations WHERE id = $1`, id); err != nil {
		return nil, fmt.Errorf("find %s: %w", id, err)
	}
	return &c, nil
}

func (h *historyDB) List(limit int) ([]Conversation, error) {
	var out []Conversation
	if err := h.db.Select(&out, `SELECT id, title, updated_at FROM conversations ORDER BY updated_at DESC LIMIT $1`, limit); err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	return out, nil
}
