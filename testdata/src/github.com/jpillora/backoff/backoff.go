// Package backoff is a stand-in for github.com/jpillora/backoff with the same API: a counter of
// attempts whose Duration grows by Factor from Min to Max, randomised only when Jitter is set.
package backoff

import (
	"math"
	"math/rand"
	"sync/atomic"
	"time"
)

// Backoff counts attempts; its zero value uses a 100ms minimum, a 10s maximum and factor 2.
type Backoff struct {
	attempt uint64
	Factor  float64
	Jitter  bool
	Min     time.Duration
	Max     time.Duration
}

// Duration returns the delay for the current attempt and counts one more.
func (b *Backoff) Duration() time.Duration {
	n := atomic.AddUint64(&b.attempt, 1) - 1
	return b.ForAttempt(float64(n))
}

// ForAttempt returns the delay for attempt n (from 0).
func (b *Backoff) ForAttempt(n float64) time.Duration {
	lo, hi, factor := b.Min, b.Max, b.Factor
	if lo <= 0 {
		lo = 100 * time.Millisecond
	}
	if hi <= 0 {
		hi = 10 * time.Second
	}
	if factor <= 0 {
		factor = 2
	}
	if lo >= hi {
		return hi
	}
	d := float64(lo) * math.Pow(factor, n)
	if b.Jitter {
		d = float64(lo) + rand.Float64()*(d-float64(lo))
	}
	if d > float64(hi) {
		return hi
	}
	return time.Duration(d)
}

// Reset starts counting again from the first attempt.
func (b *Backoff) Reset() { atomic.StoreUint64(&b.attempt, 0) }

// Attempt returns the number of delays handed out since the last Reset.
func (b *Backoff) Attempt() float64 { return float64(atomic.LoadUint64(&b.attempt)) }
