// Package sched hands queued tasks to executors over HTTP and pauses while the service is in
// maintenance.
package sched

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"notimeout/servicerun/run"
)

type Task struct {
	ID       string `json:"id"`
	Executor string `json:"-"`
	Spec     []byte `json:"spec"`
}

type Scheduler struct {
	db    *sql.DB
	log   *slog.Logger
	token string
}

func New(db *sql.DB, log *slog.Logger, token string) *Scheduler {
	return &Scheduler{db: db, log: log, token: token}
}

// Run restarts the scheduler's loops whenever they stop, until ctx ends.
func (s *Scheduler) Run(ctx context.Context) error {
	for {
		if err := s.run(ctx); err != nil {
			s.log.Error("scheduler stopped", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(2 * time.Second):
		}
	}
}

func (s *Scheduler) run(ctx context.Context) error {
	paused, err := s.maintenance(ctx)
	if err != nil {
		return fmt.Errorf("read maintenance mode: %w", err)
	}
	if paused {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	run.GoWait(&wg, func() { s.scheduleLoop(ctx) })
	run.GoWait(&wg, func() { s.watchMaintenance(ctx, cancel) })
	wg.Wait()
	return nil
}

// Flush submits what is queued now, under a context the watcher can cancel.
func (s *Scheduler) Flush(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var err error
	run.GoWait(&wg, func() { err = s.submitQueued(ctx) })
	run.GoWait(&wg, func() { s.watchMaintenance(ctx, cancel) })
	wg.Wait()
	return err
}

func (s *Scheduler) submitQueued(ctx context.Context) error {
	tasks, err := s.queued(ctx)
	if err != nil {
		return err
	}
	for _, t := range tasks {
		if err := s.submit(ctx, t); err != nil {
			return fmt.Errorf("submit %s: %w", t.ID, err)
		}
	}
	return nil
}

func (s *Scheduler) maintenance(ctx context.Context) (bool, error) {
	var on bool
	err := s.db.QueryRowContext(ctx, `SELECT enabled FROM maintenance`).Scan(&on)
	return on, err
}

func (s *Scheduler) watchMaintenance(ctx context.Context, cancel context.CancelFunc) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Second):
		}
		if on, err := s.maintenance(ctx); err == nil && on {
			cancel()
			return
		}
	}
}

func (s *Scheduler) scheduleLoop(ctx context.Context) {
	for {
		tasks, err := s.queued(ctx)
		if err != nil {
			s.log.Error("queued tasks", "err", err)
		}
		for _, t := range tasks {
			if err := s.submit(ctx, t); err != nil {
				s.log.Warn("submit task", "task", t.ID, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

func (s *Scheduler) queued(ctx context.Context) ([]Task, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, executor, spec FROM task WHERE state = 'queued'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ts []Task
	for rows.Next() {
		var t Task
		if err := rows.Scan(&t.ID, &t.Executor, &t.Spec); err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return ts, rows.Err()
}

func (s *Scheduler) submit(ctx context.Context, t Task) error {
	body, err := json.Marshal(t)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Executor+"/api/v1/executor", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if s.token != "" {
		req.Header.Set("Authorization", "token "+s.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("executor answered %s", resp.Status)
	}
	return nil
}
