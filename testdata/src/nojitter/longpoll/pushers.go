package longpoll

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
)

// Mirror pushes the bot's settings to a mirror whenever they change. Each loop below waits
// for an event before it pushes again (in a function it calls, on a sync.Cond, for a slot of
// a semaphore): a failed push waits for the next event, it does not spin. Not reported.
type Mirror struct {
	url     string
	client  *http.Client
	log     *slog.Logger
	changed chan struct{}
	mu      sync.Mutex
	cond    *sync.Cond
	dirty   bool
	state   string
	slots   chan struct{}
}

func (m *Mirror) push(ctx context.Context) error {
	m.mu.Lock()
	body := m.state
	m.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, m.url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain")
	resp, err := m.client.Do(req)
	if err != nil {
		return fmt.Errorf("push: %w", err)
	}
	return resp.Body.Close()
}

func (m *Mirror) nextChange(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-m.changed:
		return true
	}
}

// Run pushes after each change.
func (m *Mirror) Run(ctx context.Context) {
	for {
		if !m.nextChange(ctx) {
			return
		}
		if err := m.push(ctx); err != nil {
			m.log.Warn("push failed", "err", err)
			continue
		}
	}
}

func (m *Mirror) waitDirty() {
	m.mu.Lock()
	for !m.dirty {
		m.cond.Wait()
	}
	m.dirty = false
	m.mu.Unlock()
}

// RunCond pushes after each change signalled on a sync.Cond.
func (m *Mirror) RunCond(ctx context.Context) {
	for {
		m.waitDirty()
		if err := m.push(ctx); err != nil {
			m.log.Warn("push failed", "err", err)
			continue
		}
	}
}

func (m *Mirror) acquire() { m.slots <- struct{}{} }

func (m *Mirror) release() { <-m.slots }

// RunSlots pushes whenever a slot of the shared semaphore is free.
func (m *Mirror) RunSlots(ctx context.Context) {
	for ctx.Err() == nil {
		m.acquire()
		err := m.push(ctx)
		m.release()
		if err != nil {
			m.log.Warn("push failed", "err", err)
			continue
		}
	}
}
