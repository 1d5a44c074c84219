package loops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// errSlotRestarting is returned when the browser process is restarting and gives no slot.
var errSlotRestarting = errors.New("process already restarting")

// A slot supervisor runs tasks against a local browser process, one slot at a time. A task gets a
// slot; while the process restarts, slots are handed back at once.
type slotSupervisor struct {
	slots      chan struct{}
	restarting atomic.Bool
	hc         *http.Client
	endpoint   string
	logger     *slog.Logger
}

func (s *slotSupervisor) acquireSlot(ctx context.Context) error {
	select {
	case s.slots <- struct{}{}:
		if s.restarting.Load() {
			<-s.slots
			return errSlotRestarting
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("acquire slot: %w", ctx.Err())
	}
}

func (s *slotSupervisor) browserHealthy(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.endpoint+"/json/version", nil)
	if err != nil {
		return err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health check: %s", resp.Status)
	}
	return nil
}

// ---- Not reported: the loop goes round only when the local slot is refused; a failed task leaves ----

func (s *slotSupervisor) run(ctx context.Context, task func(context.Context) error) error {
	for {
		err := func() error {
			if err := s.acquireSlot(ctx); err != nil {
				return err
			}
			defer func() { <-s.slots }()
			if err := s.browserHealthy(ctx); err != nil {
				return err
			}
			return task(ctx)
		}()
		if errors.Is(err, errSlotRestarting) {
			s.logger.DebugContext(ctx, "process restarting, acquiring a slot again")
			time.Sleep(10 * time.Millisecond)
			continue
		}
		return err
	}
}

// errLeaseHeld is the coordinator's answer when another worker holds the lease.
var errLeaseHeld = errors.New("lease held by another worker")

type leaseWorker struct {
	hc          *http.Client
	coordinator string
	id          string
}

func (w *leaseWorker) claimLease(ctx context.Context, job string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, w.coordinator+"/leases/"+job+"?owner="+w.id, nil)
	if err != nil {
		return err
	}
	resp, err := w.hc.Do(req)
	if err != nil {
		return fmt.Errorf("claim %s: %w", job, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK, http.StatusCreated:
		return nil
	case http.StatusConflict:
		return errLeaseHeld
	}
	return fmt.Errorf("claim %s: %s", job, resp.Status)
}

// ---- Reported: the lease is refused by the remote coordinator, and every worker asks again after the same fixed wait ----

func (w *leaseWorker) waitForLease(ctx context.Context, job string) error {
	for {
		err := w.claimLease(ctx, job)
		if errors.Is(err, errLeaseHeld) {
			time.Sleep(500 * time.Millisecond) // related "localslot.go:109: retry loop" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		return err
	}
}
