// Package retrytest provides a fake clock and a deterministic random source for testing
// code that uses package retry, without real sleeping.
package retrytest

import (
	"context"
	"sync"
	"time"
)

// Clock is a fake retry.Clock. Sleep returns at once, advancing the clock by the
// requested duration and recording it. It is safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	// OnSleep, if set, is called at the start of each Sleep (without the lock held), for
	// example to cancel a context while the code under test waits.
	OnSleep func(d time.Duration)
}

// NewClock returns a Clock set to start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep records d and advances the clock by it, unless ctx is done (before or after
// OnSleep), in which case it returns ctx.Err() and the clock does not move.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if c.OnSleep != nil {
		c.OnSleep(d)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(max(d, 0))
	return nil
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Sleeps returns the durations slept so far, in order.
func (c *Clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// Rand is a deterministic retry.Rand that always picks the same fraction of its range:
// Rand(0) the lowest value, Rand(1) the highest.
type Rand float64

// Int64N returns floor(r * (n-1)), clamped to [0, n).
func (r Rand) Int64N(n int64) int64 {
	f := float64(r) * float64(n-1)
	switch {
	case f <= 0:
		return 0
	case f >= float64(n-1):
		return n - 1
	}
	return int64(f)
}
