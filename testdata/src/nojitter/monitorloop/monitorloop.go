// Package monitorloop runs a policy monitor until its context is done, starting it again
// after an unrecoverable error. The monitor returns nil once its context is done, so the
// loop leaves then; the restart waits a fixed delay, which is reported. A monitor that
// returns the context's error instead makes the loop go round for ever once it is done.
package monitorloop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

var errUnrecoverable = errors.New("unrecoverable")

// Manager watches the policies of a remote source.
type Manager struct {
	hc     *http.Client
	source string
	ids    chan []string
	errs   chan error
	log    *slog.Logger
}

func (m *Manager) fetch(ctx context.Context) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.source+"/policies", nil)
	if err != nil {
		return nil, err
	}
	resp, err := m.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: %s", errUnrecoverable, resp.Status)
	}
	return []string{"p1"}, nil
}

// monitor fetches the policies each tick until ctx is done (nil then) or a fetch fails.
func (m *Manager) monitor(ctx context.Context) error {
	defer m.log.Debug("monitor stopped")
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			m.log.Debug("stopping policy monitor")
			return nil
		case <-t.C:
			ids, err := m.fetch(ctx)
			if err != nil {
				return err
			}
			m.ids <- ids
		}
	}
}

// watch is monitor that returns the context's error once it is done.
func (m *Manager) watch(ctx context.Context) error {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			ids, err := m.fetch(ctx)
			if err != nil {
				return err
			}
			m.ids <- ids
		}
	}
}

// ---- Reported once: the restart's fixed wait; the loop leaves when ctx is done ----

// Run monitors the policies until ctx is done.
func (m *Manager) Run(ctx context.Context) {
	for {
		err := m.monitor(ctx)
		if err == nil {
			break
		}
		m.log.Warn("restarting policy monitor", "err", err)
		time.Sleep(10 * time.Second) // related "monitorloop.go:85: retry loop" // want `retry loop waits a fixed 10s between attempts, so clients that failed together retry together; add jitter`
	}
}

// ---- Reported twice: and once ctx is done, watch fails at once, for ever ----

// Watch watches the policies until ctx is done.
func (m *Manager) Watch(ctx context.Context) {
	for { // related "monitorloop.go:99: retry loop" // want `retry loop goes round on every failure: once ctx is done it retries for ever; leave when ctx\.Err\(\) is set`
		err := m.watch(ctx)
		if err == nil {
			break
		}
		m.log.Warn("restarting policy watch", "err", err)
		time.Sleep(10 * time.Second) // related "monitorloop.go:99: retry loop" // want `retry loop waits a fixed 10s between attempts, so clients that failed together retry together; add jitter`
	}
}
