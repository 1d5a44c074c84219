package loops

import (
	"log/slog"
	"math/rand/v2"
	"time"
)

// Heartbeats: each round first waits a random interval (or a forced beat), then beats; after a
// failure it also backs off, without jitter of its own. The random wait on every way round
// spreads the beats of all senders, so the fixed backoff is not reported. The same loop with a
// fixed interval at the top of the round is.

// Beater sends heartbeats to a peer; its implementations are remote.
type Beater interface {
	Beat(peer string) error
}

// randomInterval returns a channel that fires after between d and 2d.
func randomInterval(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	return time.After(d + rand.N(d))
}

func beatBackoff(base time.Duration, failures int, limit time.Duration) time.Duration {
	d := base << min(failures, 10)
	return min(d, limit)
}

type heartbeater struct {
	peer     string
	interval time.Duration
	beater   Beater
	notify   chan struct{}
	stop     chan struct{}
}

// run beats until stopped: random interval, then a beat; a failure backs off on top.
func (h *heartbeater) run() {
	failures := 0
	for {
		select {
		case <-h.notify:
		case <-randomInterval(h.interval):
		case <-h.stop:
			return
		}
		if err := h.beater.Beat(h.peer); err != nil {
			failures++
			wait := beatBackoff(10*time.Millisecond, failures, h.interval/2)
			slog.Warn("heartbeat failed", "peer", h.peer, "backoff", wait, "err", err)
			select {
			case <-time.After(wait):
			case <-h.stop:
				return
			}
			continue
		}
		failures = 0
	}
}

// runFixed beats on a fixed interval and backs off without jitter after a failure: every
// sender that failed together beats again together.
func (h *heartbeater) runFixed() {
	failures := 0
	for {
		select {
		case <-h.notify:
		case <-time.After(h.interval):
		case <-h.stop:
			return
		}
		if err := h.beater.Beat(h.peer); err != nil {
			failures++
			wait := beatBackoff(10*time.Millisecond, failures, h.interval/2)
			slog.Warn("heartbeat failed", "peer", h.peer, "backoff", wait, "err", err)
			select {
			case <-time.After(wait): // related "heartbeat.go:69: long-running loop" // want `long-running loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
			case <-h.stop:
				return
			}
			continue
		}
		failures = 0
	}
}
