package retry

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// BreakerState is the state of a [Breaker].
type BreakerState uint8

const (
	Closed   BreakerState = iota // calls go through; outcomes are counted
	Open                         // calls fail fast with ErrBreakerOpen
	HalfOpen                     // a few probe calls test the dependency
)

func (s BreakerState) String() string {
	switch s {
	case Closed:
		return "closed"
	case Open:
		return "open"
	case HalfOpen:
		return "half-open"
	}
	return fmt.Sprintf("BreakerState(%d)", uint8(s))
}

// BreakerConfig configures a [Breaker]. Zero fields take the defaults.
type BreakerConfig struct {
	// FailureRatio opens the breaker when this share of the calls in Window failed,
	// in (0, 1]; zero means 0.5.
	FailureRatio float64
	// MinRequests is the number of calls in Window below which it never opens; zero means 20.
	MinRequests int
	// Window is the span over which calls are counted; zero means 10 s.
	Window time.Duration
	// OpenFor is how long it stays open before letting probes through; zero means 5 s.
	OpenFor time.Duration
	// Probes is the number of concurrent probe calls in the half-open state, and of
	// successes that close it again; zero means 1. A probe that never reports back is
	// forgotten after OpenFor.
	Probes int
	// IsFailure reports whether a call's error counts as a failure of the dependency; nil means
	// [IsFailure]: every error but the caller's cancellation and answers that blame the request
	// (a 404). Narrow it, for example to [IsTransient], to count fewer.
	IsFailure func(err error) bool
	// OnStateChange, if set, is called after each change of state (not under a lock).
	OnStateChange func(from, to BreakerState)
	// Clock replaces the real clock, for tests.
	Clock Clock
}

// Breaker is a circuit breaker for one dependency: closed, it counts failures; past
// FailureRatio it opens and rejects calls for OpenFor; then it lets Probes calls through,
// closing again when they succeed and reopening at the first failure. Every failure counts
// (see [BreakerConfig].IsFailure): server errors, unknown errors and timeouts, retryable or
// not, including calls that end at Do's own deadline; a dependency that answers 404 is healthy,
// and a call the caller cancelled says nothing. A Breaker is safe for concurrent use.
type Breaker struct {
	cfg BreakerConfig

	mu         sync.Mutex
	state      BreakerState
	gen        uint64    // increases with every change of state; stale permits are ignored
	openUntil  time.Time // Open: when probes may start
	probes     int       // HalfOpen: probes in flight
	successes  int       // HalfOpen: successful probes
	probeSince time.Time // HalfOpen: when the last probe started
	win        window    // Closed: a: successes, b: failures
}

// NewBreaker returns a closed Breaker. It panics if a field of cfg is negative, or
// FailureRatio above 1.
func NewBreaker(cfg BreakerConfig) *Breaker {
	if !(cfg.FailureRatio >= 0 && cfg.FailureRatio <= 1) || cfg.MinRequests < 0 ||
		cfg.Window < 0 || cfg.OpenFor < 0 || cfg.Probes < 0 {
		panic(fmt.Sprintf("retry: invalid BreakerConfig %+v", cfg))
	}
	if cfg.FailureRatio == 0 {
		cfg.FailureRatio = 0.5
	}
	if cfg.MinRequests == 0 {
		cfg.MinRequests = 20
	}
	if cfg.Window == 0 {
		cfg.Window = 10 * time.Second
	}
	if cfg.OpenFor == 0 {
		cfg.OpenFor = 5 * time.Second
	}
	if cfg.Probes == 0 {
		cfg.Probes = 1
	}
	if cfg.IsFailure == nil {
		cfg.IsFailure = IsFailure
	}
	cfg.Clock = clockOr(cfg.Clock)
	return &Breaker{cfg: cfg, win: newWindow(cfg.Window)}
}

// State returns the current state.
func (b *Breaker) State() BreakerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == Open && !b.cfg.Clock.Now().Before(b.openUntil) {
		return HalfOpen // the next call will be a probe
	}
	return b.state
}

// openAfter reports whether the breaker will still be open once d has passed, so that a
// call after a wait of d is sure to be rejected. A nil *Breaker is never open.
func (b *Breaker) openAfter(d time.Duration) bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state == Open && b.cfg.Clock.Now().Add(d).Before(b.openUntil)
}

// Permit is the breaker's leave for one call. Report the call's outcome with exactly one
// of its methods. The zero Permit (no breaker) ignores reports.
type Permit struct {
	b     *Breaker
	gen   uint64
	probe bool
}

// Allow asks whether a call may go ahead. It returns ErrBreakerOpen when it may not.
// A nil *Breaker allows every call.
func (b *Breaker) Allow() (Permit, error) {
	if b == nil {
		return Permit{}, nil
	}
	b.mu.Lock()
	from := b.state
	p, err := b.allowLocked()
	to := b.state
	b.mu.Unlock()
	b.notify(from, to)
	return p, err
}

func (b *Breaker) allowLocked() (Permit, error) {
	if b.state == Closed {
		return Permit{b: b, gen: b.gen}, nil
	}
	now := b.cfg.Clock.Now()
	if b.state == Open {
		if now.Before(b.openUntil) {
			return Permit{}, ErrBreakerOpen
		}
		b.setLocked(HalfOpen)
	}
	if b.probes >= b.cfg.Probes {
		if now.Sub(b.probeSince) < b.cfg.OpenFor {
			return Permit{}, ErrBreakerOpen
		}
		b.setLocked(HalfOpen) // the probes in flight never reported: forget them
	}
	b.probes++
	b.probeSince = now
	return Permit{b: b, gen: b.gen, probe: true}, nil
}

// Done reports the call's outcome from its error: nil is a success, a cancellation says
// nothing (Abandon), and an error is a failure when the breaker's IsFailure says so, else a
// success (the dependency answered).
func (p Permit) Done(err error) {
	switch {
	case p.b == nil:
	case err == nil:
		p.Success()
	case errors.Is(err, context.Canceled):
		p.Abandon()
	case p.b.cfg.IsFailure(err):
		p.Failure()
	default:
		p.Success()
	}
}

// Success reports that the call succeeded, or failed in a way that shows the dependency
// is healthy.
func (p Permit) Success() { p.done(1) }

// Failure reports a failure of the dependency.
func (p Permit) Failure() { p.done(-1) }

// Abandon reports a call whose outcome says nothing (the caller gave up).
func (p Permit) Abandon() { p.done(0) }

func (p Permit) done(outcome int) {
	b := p.b
	if b == nil {
		return
	}
	now := b.cfg.Clock.Now()
	b.mu.Lock()
	if p.gen != b.gen {
		b.mu.Unlock()
		return
	}
	from := b.state
	switch {
	case p.probe:
		b.probes--
		switch {
		case outcome < 0:
			b.openLocked(now)
		case outcome > 0:
			b.successes++
			if b.successes >= b.cfg.Probes {
				b.setLocked(Closed)
			}
		}
	case outcome > 0:
		b.win.add(now, 1, 0)
	case outcome < 0:
		b.win.add(now, 0, 1)
		ok, failed := b.win.sum(now)
		if total := ok + failed; total >= int64(b.cfg.MinRequests) &&
			float64(failed) >= b.cfg.FailureRatio*float64(total) {
			b.openLocked(now)
		}
	}
	to := b.state
	b.mu.Unlock()
	b.notify(from, to)
}

func (b *Breaker) openLocked(now time.Time) {
	b.setLocked(Open)
	b.openUntil = now.Add(b.cfg.OpenFor)
}

// setLocked enters a state afresh.
func (b *Breaker) setLocked(s BreakerState) {
	b.state = s
	b.gen++
	b.probes, b.successes = 0, 0
	b.win.reset()
}

func (b *Breaker) notify(from, to BreakerState) {
	if from != to && b.cfg.OnStateChange != nil {
		b.cfg.OnStateChange(from, to)
	}
}
