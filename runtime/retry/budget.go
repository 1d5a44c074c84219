package retry

import (
	"fmt"
	"math"
	"sync/atomic"
)

// BudgetConfig configures a [Budget]. Zero fields take the defaults.
type BudgetConfig struct {
	// Ratio is the share of requests that may be retried, in [0, 1]; zero means 0.1.
	Ratio float64
	// Burst is how many tokens the budget holds at most, and starts with: the retries allowed
	// before requests have earned any, and the most an outage can spend at once beyond Ratio.
	// Zero means 10.
	Burst int
}

// Budget limits the retries to one dependency, shared by every call to it, so that retries
// cannot multiply the load on a struggling service. It is a token bucket, like aws-sdk-go-v2's
// retry quota: each first attempt deposits Ratio tokens, each retry spends one, and the bucket
// holds at most Burst tokens (it starts full). Over any stretch of n requests, at most
// Burst + Ratio*n retries go ahead, at every request rate; when no token is left, Do fails fast
// with [ErrBudgetExhausted]. It reads no clock and takes no lock. A Budget is safe for
// concurrent use.
//
// A Budget counts one process's requests. In a fleet of N instances each one holds its ratio of
// its own requests, so the fleet's retries stay within Ratio of the fleet's requests, plus at most
// N*Burst spent at the start of an outage: on large fleets keep Burst small (1 to 3). Nothing is
// to be shared between instances for the ratio to hold; to bound the total load whatever the
// number of clients, the dependency itself sheds it (429 or 503 with Retry-After, which Do
// honours).
type Budget struct {
	deposit int64 // micro-tokens per request
	max     int64 // micro-tokens
	tokens  atomic.Int64
}

// token is one token, in micro-tokens.
const token = 1_000_000

// NewBudget returns a full Budget. It panics if a field of cfg is negative, or Ratio above 1.
func NewBudget(cfg BudgetConfig) *Budget {
	if !(cfg.Ratio >= 0 && cfg.Ratio <= 1) || cfg.Burst < 0 || cfg.Burst > math.MaxInt32 {
		panic(fmt.Sprintf("retry: invalid BudgetConfig %+v", cfg))
	}
	if cfg.Ratio == 0 {
		cfg.Ratio = 0.1
	}
	if cfg.Burst == 0 {
		cfg.Burst = 10
	}
	b := &Budget{deposit: int64(math.Round(cfg.Ratio * token)), max: int64(cfg.Burst) * token}
	b.tokens.Store(b.max)
	return b
}

// Request records a first attempt (not a retry): it deposits Ratio tokens.
func (b *Budget) Request() {
	for {
		t := b.tokens.Load()
		if t >= b.max { // full: the common case, a read and nothing to write
			return
		}
		if b.tokens.CompareAndSwap(t, min(t+b.deposit, b.max)) {
			return
		}
	}
}

// AllowRetry reports whether a retry may go ahead, and spends a token if so.
func (b *Budget) AllowRetry() bool {
	for {
		t := b.tokens.Load()
		if t < token {
			return false
		}
		if b.tokens.CompareAndSwap(t, t-token) {
			return true
		}
	}
}

// Tokens returns the tokens left: the retries that may go ahead now (for metrics).
func (b *Budget) Tokens() float64 { return float64(b.tokens.Load()) / token }
