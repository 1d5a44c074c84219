package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
)

// configWatch fetches a key from a config service each time its watcher is told the key
// changed.
type configWatch struct {
	hc       *http.Client
	addr     string
	mu       sync.Mutex
	watchers map[string][]chan struct{}
	shutdown chan struct{}
}

func (w *configWatch) fetch(ctx context.Context, key string) (map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.addr+"/config/"+key, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := w.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("config %s: %s", key, resp.Status)
	}
	var v map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return nil, fmt.Errorf("decode config %s: %w", key, err)
	}
	return v, nil
}

// Watch calls f with the key's value after every change, until f returns false. A failed
// fetch is skipped: the loop waits for the next change, it does not fetch again at once.
// Not reported.
func (w *configWatch) Watch(ctx context.Context, key string, f func(map[string]any) bool) {
	changed := make(chan struct{}, 1)
	w.mu.Lock()
	w.watchers[key] = append(w.watchers[key], changed)
	w.mu.Unlock()
	for {
		select {
		case <-changed:
			v, err := w.fetch(ctx, key)
			if err != nil {
				slog.Warn("config fetch failed after a change", "key", key, "err", err)
				continue
			}
			if !f(v) {
				return
			}
		case <-w.shutdown:
			return
		case <-ctx.Done():
			return
		}
	}
}

// Refresh fetches again at once after a failure, until it succeeds: reported.
func (w *configWatch) Refresh(ctx context.Context, key string) map[string]any {
	for { // related "events.go:72: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		select {
		case <-w.shutdown:
			return nil
		case <-ctx.Done():
			return nil
		default:
		}
		v, err := w.fetch(ctx, key)
		if err != nil {
			slog.Warn("config fetch failed", "key", key, "err", err)
			continue
		}
		return v
	}
}
