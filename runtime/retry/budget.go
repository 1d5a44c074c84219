package retry

import (
	"fmt"
	"sync"
	"time"
)

// BudgetConfig configures a [Budget]. Zero fields take the defaults.
type BudgetConfig struct {
	// Ratio is the share of requests that may be retried, in [0, 1]; zero means 0.1.
	Ratio float64
	// MinPerSecond is the floor: retries always allowed per second of TTL, even with few
	// requests; zero means 10.
	MinPerSecond int
	// TTL is how long a request's deposit counts; zero means 10 s.
	TTL time.Duration
	// Clock replaces the real clock, for tests.
	Clock Clock
}

// Budget limits the retries to one dependency, shared by every call to it, so that retries
// cannot multiply the load on a struggling service. Each first attempt deposits Ratio
// tokens that expire after TTL; each retry spends one; MinPerSecond * TTL tokens are
// always there. When none is left, Do fails fast with [ErrBudgetExhausted].
// A Budget is safe for concurrent use.
type Budget struct {
	ratio   float64
	reserve float64
	clock   Clock
	mu      sync.Mutex
	win     window // a: requests, b: retries
}

// NewBudget returns a Budget. It panics if a field of cfg is negative, or Ratio above 1.
func NewBudget(cfg BudgetConfig) *Budget {
	if !(cfg.Ratio >= 0 && cfg.Ratio <= 1) || cfg.MinPerSecond < 0 || cfg.TTL < 0 {
		panic(fmt.Sprintf("retry: invalid BudgetConfig %+v", cfg))
	}
	if cfg.Ratio == 0 {
		cfg.Ratio = 0.1
	}
	if cfg.MinPerSecond == 0 {
		cfg.MinPerSecond = 10
	}
	if cfg.TTL == 0 {
		cfg.TTL = 10 * time.Second
	}
	return &Budget{
		ratio:   cfg.Ratio,
		reserve: float64(cfg.MinPerSecond) * cfg.TTL.Seconds(),
		clock:   clockOr(cfg.Clock),
		win:     newWindow(cfg.TTL),
	}
}

// Request records a first attempt (not a retry): it deposits Ratio tokens.
func (b *Budget) Request() {
	now := b.clock.Now()
	b.mu.Lock()
	b.win.add(now, 1, 0)
	b.mu.Unlock()
}

// AllowRetry reports whether a retry may go ahead, and spends a token if so.
func (b *Budget) AllowRetry() bool {
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	requests, retries := b.win.sum(now)
	if float64(retries+1) > b.reserve+b.ratio*float64(requests) {
		return false
	}
	b.win.add(now, 0, 1)
	return true
}
