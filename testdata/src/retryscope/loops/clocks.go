package loops

import (
	"context"
	"time"
)

// Waits are recognised by what the code does, not by names: an injected clock's Sleep (a call
// through an interface taking only a duration) waits; a cache's SetTTL does not; a function
// named like a wait whose body does not wait is no wait.

type clock interface {
	Sleep(d time.Duration)
	After(d time.Duration) <-chan time.Time
}

type cache interface {
	SetTTL(key string, d time.Duration) error
}

type syncer struct {
	clk   clock
	cache cache
	every time.Duration
	last  time.Duration
}

func (s *syncer) push(ctx context.Context) error { return callCtx(ctx) }

// recordBackoffDelay only records the delay for metrics: its name says nothing.
func (s *syncer) recordBackoffDelay(d time.Duration) { s.last = d }

func (s *syncer) pushWithClock(ctx context.Context) error { // want pushWithClock:`retries: retry loop`
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop: attempts=5 wait=fixed deadline=context`
		if err = s.push(ctx); err == nil {
			return nil
		}
		s.clk.Sleep(s.every)
	}
	return err
}

func (s *syncer) pushWithTTL(ctx context.Context) error { // want pushWithTTL:`retries: retry loop`
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop: attempts=5 wait=none deadline=context`
		if err = s.push(ctx); err == nil {
			return nil
		}
		_ = s.cache.SetTTL("push", s.every)
		s.recordBackoffDelay(s.every)
	}
	return err
}
