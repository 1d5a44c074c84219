// Package notify delivers run events to the webhook a project configures, and keeps a
// delivery's outcome in the database.
package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"notimeout/servicerun/run"
)

type Config struct {
	WebhookURL    string
	WebhookSecret string
	Interval      time.Duration
}

type Service struct {
	c   Config
	db  *sql.DB
	log *slog.Logger
}

func New(c Config, db *sql.DB, log *slog.Logger) *Service {
	return &Service{c: c, db: db, log: log}
}

// Run starts the delivery and cleaner loops and waits until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	run.GoWait(&wg, func() { s.deliveriesLoop(ctx) })
	run.GoWait(&wg, func() { s.cleanerLoop(ctx) })
	run.GoWait(&wg, func() { s.heartbeatLoop(ctx) })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if _, err := s.db.ExecContext(ctx, `DELETE FROM delivery_lock WHERE expires < now()`); err != nil {
				s.log.Warn("expire locks", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Minute):
			}
		}
	}()
	<-ctx.Done()
	wg.Wait()
	return nil
}

func (s *Service) deliveriesLoop(ctx context.Context) {
	for {
		if err := s.deliverPending(ctx); err != nil {
			s.log.Error("deliver webhooks", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.c.Interval):
		}
	}
}

func (s *Service) deliverPending(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, payload FROM delivery WHERE delivered_at IS NULL ORDER BY id LIMIT 100`)
	if err != nil {
		return fmt.Errorf("pending deliveries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var payload []byte
		if err := rows.Scan(&id, &payload); err != nil {
			return fmt.Errorf("scan delivery: %w", err)
		}
		resp, err := s.send(ctx, id, payload)
		status := 0
		if err != nil {
			s.log.Warn("webhook delivery failed", "id", id, "err", err)
		} else {
			status = resp.StatusCode
			resp.Body.Close()
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE delivery SET delivered_at = now(), status = $1 WHERE id = $2`, status, id); err != nil {
			return fmt.Errorf("record delivery %s: %w", id, err)
		}
	}
	return rows.Err()
}

func (s *Service) send(ctx context.Context, id string, payload []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.c.WebhookURL, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Delivery", id)
	if s.c.WebhookSecret != "" {
		mac := hmac.New(sha256.New, []byte(s.c.WebhookSecret))
		mac.Write(payload)
		req.Header.Set("X-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	}
	return http.DefaultClient.Do(req)
}

// heartbeatLoop waits first, then records that the service is alive.
func (s *Service) heartbeatLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(30 * time.Second):
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE service SET seen = now() WHERE name = 'notify'`); err != nil {
			s.log.Warn("heartbeat", "err", err)
		}
	}
}

func (s *Service) cleanerLoop(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		if _, err := s.db.ExecContext(cctx, `DELETE FROM delivery WHERE delivered_at < now() - interval '7 days'`); err != nil {
			s.log.Error("clean deliveries", "err", err)
		}
		cancel()
	}
}
