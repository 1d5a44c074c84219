package mixeddb

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

type mysqlStore struct {
	db *sql.DB
}

func openMySQL(ctx context.Context, dsn string) (*mysqlStore, error) {
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return nil, fmt.Errorf("open mysql: %w", err)
	}
	if err := db.PingContext(ctx); err != nil {
		return nil, fmt.Errorf("ping mysql: %w", err)
	}
	return &mysqlStore{db: db}, nil
}

// ---- Reported: the server backend's calls drop the context they were given ----

func (s *mysqlStore) Rename(ctx context.Context, id int, title string) error {
	if _, err := s.db.Exec(`UPDATE bookmarks SET title = ? WHERE id = ?`, title, id); err != nil { // want `DB\.Exec takes no context, so a stalled database hangs this call; use ExecContext with ctx`
		return fmt.Errorf("rename %d: %w", id, err)
	}
	return nil
}
