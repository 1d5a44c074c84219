// Package createretry writes records to a time-series service. A write to a table that does
// not exist creates it and writes once more, through a helper that passes false for the flag
// that allowed it: one recovery, not a retry. A write that calls itself again after a failure,
// through a helper, passing its flag on, has no cap and no wait.
package createretry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"
)

var (
	errTableNotFound = errors.New("createretry: table not found")
	errThrottled     = errors.New("createretry: throttled")
)

type Record struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Time  int64   `json:"time"`
}

type Writer struct {
	base        string
	database    string
	createTable bool
	hc          *http.Client
}

func New(base, database string, createTable bool) *Writer {
	return &Writer{base: base, database: database, createTable: createTable, hc: &http.Client{Timeout: 20 * time.Second}}
}

func (w *Writer) post(ctx context.Context, path string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK, http.StatusCreated:
		return nil
	case http.StatusNotFound:
		return errTableNotFound
	case http.StatusTooManyRequests:
		return errThrottled
	}
	return fmt.Errorf("createretry: %s: %s", path, resp.Status)
}

// Write writes records to table; a missing table is created once, when allowed.
func (w *Writer) Write(ctx context.Context, table string, records []Record, createIfMissing bool) error {
	err := w.post(ctx, "/v1/databases/"+w.database+"/tables/"+table+"/records", records)
	if err == nil {
		return nil
	}
	if errors.Is(err, errTableNotFound) {
		if createIfMissing {
			log.Printf("createretry: table %q missing, creating it", table)
			return w.createAndWrite(ctx, table, records)
		}
		return fmt.Errorf("createretry: table %q: %w", table, err)
	}
	return err
}

func (w *Writer) createAndWrite(ctx context.Context, table string, records []Record) error {
	if !w.createTable {
		log.Printf("createretry: not creating table %q; dropping %d records", table, len(records))
		return nil
	}
	if err := w.post(ctx, "/v1/databases/"+w.database+"/tables", map[string]string{"name": table}); err != nil {
		return fmt.Errorf("createretry: creating table %q: %w", table, err)
	}
	return w.Write(ctx, table, records, false)
}

// WriteThrottled calls itself again at once after a failure, passing its flag on unchanged.
func (w *Writer) WriteThrottled(ctx context.Context, table string, records []Record, retry bool) error { // related "createretry.go:94: retrying recursion" // want `retrying function WriteThrottled goes round without waiting, so it hammers a failing dependency; wait with jitter`
	err := w.post(ctx, "/v1/databases/"+w.database+"/tables/"+table+"/records", records)
	if err != nil && retry {
		log.Printf("createretry: writing to %q: %v", table, err)
		return w.again(ctx, table, records, retry)
	}
	return err
}

func (w *Writer) again(ctx context.Context, table string, records []Record, retry bool) error {
	if !w.createTable {
		return errThrottled
	}
	return w.WriteThrottled(ctx, table, records, retry)
}
