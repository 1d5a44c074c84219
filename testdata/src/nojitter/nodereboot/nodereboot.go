// Package nodereboot reboots a node when it needs it, one node of the cluster at a time.
package nodereboot

import (
	"context"
	"errors"
	"log/slog"
	"math/rand"
	"net/http"
	"os"
	"time"

	"nojitter/nodereboot/tick"
)

type Lock interface {
	Acquire(ctx context.Context, node string) (bool, string, error)
	Release(ctx context.Context) error
}

type Agent struct {
	Node     string
	API      string
	HTTP     *http.Client
	Lock     Lock
	Period   time.Duration
	Log      *slog.Logger
	Sentinel string
}

func (a *Agent) rebootRequired() bool {
	_, err := os.Stat(a.Sentinel)
	return err == nil
}

func (a *Agent) annotate(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, a.API+"/nodes/"+a.Node+"?annotate="+key, nil)
	if err != nil {
		return err
	}
	resp, err := a.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return errors.New("annotate: " + resp.Status)
	}
	return nil
}

func (a *Agent) drain(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.API+"/nodes/"+a.Node+"/drain", nil)
	if err != nil {
		return err
	}
	resp, err := a.HTTP.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return errors.New("drain: " + resp.Status)
	}
	return nil
}

// ---- Not reported: a periodic check; a failed step waits for the next scheduled round ----

// Watch checks every period whether the node needs a reboot and, holding the cluster lock,
// drains and reboots it. A round that finds nothing to do goes round as a failed step does.
func (a *Agent) Watch(reboot func() error) {
	ctx := context.Background()
	for range tick.Spread(rand.NewSource(time.Now().UnixNano()), a.Period) {
		if !a.rebootRequired() {
			a.Log.Info("reboot not required")
			continue
		}
		if err := a.annotate(ctx, "reboot-in-progress"); err != nil {
			a.Log.Warn("annotate node", "err", err)
			continue
		}
		held, holder, err := a.Lock.Acquire(ctx, a.Node)
		if err != nil {
			a.Log.Error("acquire lock", "err", err)
			continue
		}
		if !held {
			a.Log.Info("lock held elsewhere", "holder", holder)
			continue
		}
		if err := a.drain(ctx); err != nil {
			a.Log.Error("drain", "err", err)
			if err := a.Lock.Release(ctx); err != nil {
				a.Log.Error("release lock", "err", err)
			}
			continue
		}
		if err := reboot(); err != nil {
			a.Log.Error("reboot", "err", err)
			os.Exit(1)
		}
		for {
			a.Log.Info("waiting for reboot")
			time.Sleep(time.Minute)
		}
	}
}

// ---- Reported: a start-up step tried again on every tick until it succeeds ----

// Register announces the agent on the same ticker until the API accepts it: only a failure
// goes round, and nothing counts the attempts.
func (a *Agent) Register() {
	ctx := context.Background()
	for range tick.Spread(rand.NewSource(time.Now().UnixNano()), a.Period) { // related "nodereboot.go:116: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		if err := a.annotate(ctx, "agent-registered"); err != nil {
			a.Log.Warn("register agent", "err", err)
			continue
		}
		return
	}
}
