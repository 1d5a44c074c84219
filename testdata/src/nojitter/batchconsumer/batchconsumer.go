// Package batchconsumer runs a consumer of a broker's HTTP API, restarting a failed run after a
// wait. Each run makes a handler whose ticker flushes a partial batch: the ticker is the
// handler's, read in its own loop, and not a wait between the runs. The finding belongs at
// the wait between runs.
package batchconsumer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Record is one message.
type Record struct {
	Offset int64  `json:"offset"`
	Value  string `json:"value"`
}

type handler struct {
	batch  []Record
	size   int
	ticker *time.Ticker
	proc   func([]Record) error
}

func newHandler(size int, flushEvery time.Duration, proc func([]Record) error) *handler {
	return &handler{
		batch:  make([]Record, 0, size),
		size:   size,
		ticker: time.NewTicker(flushEvery),
		proc:   proc,
	}
}

func (h *handler) flush() error {
	if len(h.batch) == 0 {
		return nil
	}
	err := h.proc(h.batch)
	h.batch = h.batch[:0]
	return err
}

// Consumer fetches records from a broker's REST proxy.
type Consumer struct {
	client *http.Client
	url    string
	wait   time.Duration
	tries  int
}

func (c *Consumer) fetch(ctx context.Context) ([]Record, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url+"/records", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching records: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching records: %s", resp.Status)
	}
	var rs []Record
	if err := json.NewDecoder(resp.Body).Decode(&rs); err != nil {
		return nil, fmt.Errorf("decoding records: %w", err)
	}
	return rs, nil
}

func (c *Consumer) consume(ctx context.Context, h *handler) error {
	defer h.ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return h.flush()
		case <-h.ticker.C:
			if err := h.flush(); err != nil {
				return err
			}
			continue
		default:
		}
		rs, err := c.fetch(ctx)
		if err != nil {
			return err
		}
		h.batch = append(h.batch, rs...)
		if len(h.batch) >= h.size {
			if err := h.flush(); err != nil {
				return err
			}
		}
	}
}

// Run consumes until ctx ends, restarting a failed run after the configured wait.
func (c *Consumer) Run(ctx context.Context, proc func([]Record) error) error {
	var err error
	for i := 0; i <= c.tries; i++ {
		h := newHandler(100, 5*time.Second, proc)
		err = c.consume(ctx, h)
		if err == nil || errors.Is(err, context.Canceled) {
			return err
		}
		slog.Error("consumer run failed", "try", i, "err", err)
		select {
		case <-time.After(c.wait): // related "batchconsumer.go:106: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}
