// Package leaseheld waits until a build lock is free. The lock service answers 423 Locked while
// another runner holds the lock, and the check says "held" then: an answer, not a failure. The
// wait loop polls that answer on a fixed period, which needs no jitter; the check's own failures
// (a transport error, a 5xx) leave the loop.
package leaseheld

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

type Locks struct {
	hc     *http.Client
	base   string
	logger *slog.Logger
}

type lockInfo struct {
	Owner string    `json:"owner"`
	Since time.Time `json:"since"`
}

func (l *Locks) held(ctx context.Context, name string) (bool, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.base+"/locks/"+name, nil)
	if err != nil {
		return false, "", err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := l.hc.Do(req)
	if err != nil {
		return false, "", fmt.Errorf("leaseheld: check %s: %w", name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusLocked {
		var info lockInfo
		if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
			return true, "", nil
		}
		return true, info.Owner, nil
	}
	if resp.StatusCode != http.StatusOK {
		return false, "", fmt.Errorf("leaseheld: check %s: status %d", name, resp.StatusCode)
	}
	return false, "", nil
}

// WaitFree polls every 2s until the lock is free or ten minutes have passed.
func (l *Locks) WaitFree(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	for {
		held, owner, err := l.held(ctx, name)
		if err != nil {
			return err
		}
		if !held {
			return nil
		}
		l.logger.Info("lock held", "lock", name, "owner", owner)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}
