package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
)

// A job dispatcher that hands a job to one of its registered workers, picking by load. A
// worker that turns the job down is left out of the next pick: each round asks another worker,
// until none is left.

var errNoWorker = errors.New("no worker available")

type jobWorker struct {
	id   string
	addr string
	load float64
}

type dispatcher struct {
	mu      sync.Mutex
	workers []*jobWorker
	hc      *http.Client
	log     *slog.Logger
}

func (d *dispatcher) pickWorker(skip map[*jobWorker]struct{}) (*jobWorker, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var best *jobWorker
	for _, w := range d.workers {
		if _, tried := skip[w]; tried {
			continue
		}
		if best == nil || w.load < best.load {
			best = w
		}
	}
	if best == nil {
		return nil, errNoWorker
	}
	return best, nil
}

func (d *dispatcher) assign(ctx context.Context, w *jobWorker, job string) error {
	body, err := json.Marshal(map[string]string{"job": job})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.addr+"/jobs", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("worker %s: %s", w.id, resp.Status)
	}
	return nil
}

// ---- Not reported: each round asks a worker not asked before ----

func (d *dispatcher) Dispatch(ctx context.Context, job string) (string, error) {
	attempted := make(map[*jobWorker]struct{})
	for {
		w, err := d.pickWorker(attempted)
		if err != nil {
			return "", fmt.Errorf("dispatch %s: %w", job, err)
		}
		attempted[w] = struct{}{}
		if err := d.assign(ctx, w, job); err != nil {
			d.log.Warn("worker turned the job down", "worker", w.id, "err", err)
			continue
		}
		return w.id, nil
	}
}

// ---- Reported: the same pick each round, with nothing left out ----

func (d *dispatcher) DispatchAgain(ctx context.Context, job string) (string, error) {
	for { // related "dispatch.go:93: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		w, err := d.pickWorker(nil)
		if err != nil {
			return "", fmt.Errorf("dispatch %s: %w", job, err)
		}
		if err := d.assign(ctx, w, job); err != nil {
			d.log.Warn("worker turned the job down", "worker", w.id, "err", err)
			continue
		}
		return w.id, nil
	}
}
