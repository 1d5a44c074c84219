package retry

import (
	"math"
	"math/rand/v2"
	"time"
)

// Rand is the random source of the jitter. Tests inject a deterministic one; nil means
// math/rand/v2's global source. A *rand.Rand from math/rand/v2 fits, but a Policy shared by
// goroutines needs a source that is safe for concurrent use.
type Rand interface {
	// Int64N returns a value in [0, n); n > 0.
	Int64N(n int64) int64
}

// globalRand is math/rand/v2's goroutine-safe global source.
type globalRand struct{}

func (globalRand) Int64N(n int64) int64 { return rand.Int64N(n) }

func randOr(r Rand) Rand {
	if r == nil {
		return globalRand{}
	}
	return r
}

// between returns a random duration in [lo, hi]; lo <= hi, lo >= 0.
func between(r Rand, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	span := int64(hi - lo)
	if span < math.MaxInt64 {
		span++
	}
	return lo + time.Duration(r.Int64N(span))
}

// Backoff returns the exponential delay before retry number n (n = 1 before the second
// attempt): min(limit, base * 2^(n-1)), without overflow. Wrap it in a jitter function.
func Backoff(n int, base, limit time.Duration) time.Duration {
	if base <= 0 || limit <= 0 {
		return 0
	}
	if n < 1 {
		n = 1
	}
	if base >= limit || n-1 >= 62 || base > limit>>(n-1) {
		return limit
	}
	return base << (n - 1)
}

// FullJitter returns a random duration in [0, d]: the recommended jitter, which spreads
// retrying clients evenly. Use it in hand-written loops: time.Sleep(retry.FullJitter(d)).
func FullJitter(d time.Duration) time.Duration { return fullJitter(globalRand{}, d) }

// EqualJitter returns a random duration in [d/2, d]: it keeps at least half of the wait.
func EqualJitter(d time.Duration) time.Duration { return equalJitter(globalRand{}, d) }

// ProportionalJitter returns a random duration in [d - p%, d + p%], p clamped to [0, 100].
func ProportionalJitter(d time.Duration, p int) time.Duration {
	return proportionalJitter(globalRand{}, d, p, math.MaxInt64)
}

// DecorrelatedJitter returns the next wait after prev: a random duration in
// [base, 3*prev], at most limit ("decorrelated jitter"). Start with prev = base.
func DecorrelatedJitter(prev, base, limit time.Duration) time.Duration {
	return decorrelatedJitter(globalRand{}, prev, base, limit)
}

func fullJitter(r Rand, d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return between(r, 0, d)
}

func equalJitter(r Rand, d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return between(r, d-d/2, d)
}

// proportionalJitter spreads d by +-p percent, never above limit.
func proportionalJitter(r Rand, d time.Duration, p int, limit time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	pct := time.Duration(max(0, min(100, p)))
	spread := d/100*pct + d%100*pct/100 // d*p/100 without overflow
	lo, hi := d-spread, d+spread
	if hi < d || hi > limit { // overflow, or above the cap
		hi = limit
	}
	return between(r, min(lo, hi), hi)
}

func decorrelatedJitter(r Rand, prev, base, limit time.Duration) time.Duration {
	if base <= 0 || limit <= 0 {
		return 0
	}
	base = min(base, limit)
	prev = min(max(prev, 0), limit)
	hi := limit
	if prev <= limit/3 {
		hi = 3 * prev
	}
	if hi < base {
		hi = base
	}
	return between(r, base, hi)
}
