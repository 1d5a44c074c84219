// Package heartbeat keeps a service instance registered by sending a beat every period. After
// a failed beat it waits the same period it waits after a good one: the loop keeps its
// schedule, the wait is not a backoff (not reported). A beater that waits a fixed second after
// a failure and its period after a success retries the failure without jitter (reported).
package heartbeat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// Beat is one instance's heartbeat state.
type Beat struct {
	Service string
	IP      string
	Port    int
	Period  time.Duration
	State   atomic.Int32
}

// Reactor sends beats to the registry.
type Reactor struct {
	registry string
	hc       *http.Client
	ctx      context.Context
}

// New returns a reactor for the registry at url.
func New(ctx context.Context, url string) *Reactor {
	return &Reactor{registry: url, hc: &http.Client{Timeout: 3 * time.Second}, ctx: ctx}
}

func (r *Reactor) send(b *Beat) (int64, error) {
	body, err := json.Marshal(map[string]any{"service": b.Service, "ip": b.IP, "port": b.Port})
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(r.ctx, http.MethodPut, r.registry+"/v1/instance/beat", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("beat: status %d", resp.StatusCode)
	}
	var out struct{ ClientBeatInterval int64 }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return 0, err
	}
	return out.ClientBeatInterval, nil
}

// Run beats every b.Period until the instance shuts down.
func (r *Reactor) Run(b *Beat) {
	t := time.NewTimer(b.Period)
	defer t.Stop()
	for {
		if b.State.Load() == 1 {
			slog.Info("instance stops beating", "service", b.Service)
			return
		}
		interval, err := r.send(b)
		if err != nil {
			slog.Error("beat failed", "service", b.Service, "err", err)
			w := time.NewTimer(b.Period)
			<-w.C
			continue
		}
		if interval > 0 {
			b.Period = time.Duration(interval) * time.Millisecond
		}
		t.Reset(b.Period)
		select {
		case <-t.C:
		case <-r.ctx.Done():
			return
		}
	}
}

// RunEager beats every b.Period, but tries again a second after a failure.
func (r *Reactor) RunEager(b *Beat) {
	t := time.NewTimer(b.Period)
	defer t.Stop()
	for {
		if b.State.Load() == 1 {
			return
		}
		if _, err := r.send(b); err != nil {
			slog.Error("beat failed, again in a second", "service", b.Service, "err", err)
			time.Sleep(time.Second) // related "heartbeat.go:96: long-running loop" // want `long-running loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		t.Reset(b.Period)
		select {
		case <-t.C:
		case <-r.ctx.Done():
			return
		}
	}
}
