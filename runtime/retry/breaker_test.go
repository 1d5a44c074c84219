package retry

import (
	"sync"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/retry/retrytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func record(b *Breaker, failures, successes int) {
	for range failures {
		if p, err := b.Allow(); err == nil {
			p.Failure()
		}
	}
	for range successes {
		if p, err := b.Allow(); err == nil {
			p.Success()
		}
	}
}

func TestBreakerOpensAtTheFailureRatio(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{MinRequests: 10, Clock: clock}) // ratio 0.5
	record(b, 0, 6)
	record(b, 4, 0)
	assert.Equal(t, Closed, b.State(), "4 failures in 10 calls")
	record(b, 1, 0)
	assert.Equal(t, Closed, b.State(), "5 in 11: below half")
	record(b, 1, 0)
	assert.Equal(t, Open, b.State(), "6 in 12")
	_, err := b.Allow()
	assert.ErrorIs(t, err, ErrBreakerOpen)
}

func TestBreakerNeedsMinRequests(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{Clock: clock}) // 20 calls
	record(b, 19, 0)
	assert.Equal(t, Closed, b.State())
	record(b, 1, 0)
	assert.Equal(t, Open, b.State())
}

func TestBreakerForgetsOldCalls(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{MinRequests: 4, Window: time.Second, Clock: clock})
	record(b, 3, 0)
	clock.Advance(2 * time.Second)
	record(b, 1, 0)
	assert.Equal(t, Closed, b.State(), "the first three failures left the window")
}

func TestBreakerHalfOpenProbes(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	var changes []string
	b := NewBreaker(BreakerConfig{MinRequests: 1, OpenFor: time.Second, Probes: 2, Clock: clock,
		OnStateChange: func(from, to BreakerState) { changes = append(changes, from.String()+">"+to.String()) }})
	record(b, 1, 0)
	require.Equal(t, Open, b.State())

	clock.Advance(999 * time.Millisecond)
	_, err := b.Allow()
	assert.ErrorIs(t, err, ErrBreakerOpen, "still open")

	clock.Advance(time.Millisecond)
	assert.Equal(t, HalfOpen, b.State())
	p1, err := b.Allow()
	require.NoError(t, err)
	p2, err := b.Allow()
	require.NoError(t, err)
	_, err = b.Allow()
	assert.ErrorIs(t, err, ErrBreakerOpen, "only two probes at once")

	p1.Success()
	assert.Equal(t, HalfOpen, b.State(), "one success of two")
	p3, err := b.Allow()
	require.NoError(t, err, "a finished probe frees its place")
	p2.Success()
	assert.Equal(t, Closed, b.State())
	p3.Failure() // a stale probe: the breaker has moved on
	assert.Equal(t, Closed, b.State())
	assert.Equal(t, []string{"closed>open", "open>half-open", "half-open>closed"}, changes)
}

func TestBreakerProbeFailureReopens(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{MinRequests: 1, OpenFor: time.Second, Clock: clock})
	record(b, 1, 0)
	clock.Advance(time.Second)
	p, err := b.Allow()
	require.NoError(t, err)
	p.Failure()
	assert.Equal(t, Open, b.State())
	clock.Advance(500 * time.Millisecond)
	_, err = b.Allow()
	assert.ErrorIs(t, err, ErrBreakerOpen, "open for a full OpenFor again")
}

func TestBreakerAbandonedProbe(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{MinRequests: 1, OpenFor: time.Second, Clock: clock})
	record(b, 1, 0)
	clock.Advance(time.Second)
	p, err := b.Allow()
	require.NoError(t, err)
	p.Abandon()
	assert.Equal(t, HalfOpen, b.State())
	_, err = b.Allow()
	assert.NoError(t, err, "an abandoned probe frees its place")
}

func TestBreakerForgetsLostProbes(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{MinRequests: 1, OpenFor: time.Second, Clock: clock})
	record(b, 1, 0)
	clock.Advance(time.Second)
	lost, err := b.Allow() // never reports
	require.NoError(t, err)
	_, err = b.Allow()
	assert.ErrorIs(t, err, ErrBreakerOpen)
	clock.Advance(time.Second)
	p, err := b.Allow()
	require.NoError(t, err, "the lost probe is forgotten after OpenFor")
	lost.Failure() // too late: ignored
	assert.Equal(t, HalfOpen, b.State())
	p.Success()
	assert.Equal(t, Closed, b.State())
}

func TestBreakerStalePermitsFromBeforeOpening(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{MinRequests: 1, OpenFor: time.Second, Clock: clock})
	old, err := b.Allow()
	require.NoError(t, err)
	record(b, 1, 0)
	clock.Advance(time.Second)
	probe, err := b.Allow()
	require.NoError(t, err)
	old.Success() // from the closed period: must not close the breaker
	assert.Equal(t, HalfOpen, b.State())
	probe.Success()
	assert.Equal(t, Closed, b.State())
}

func TestNilBreakerAndZeroPermit(t *testing.T) {
	var b *Breaker
	p, err := b.Allow()
	assert.NoError(t, err)
	p.Failure()
	p.Success()
	p.Abandon()
	assert.Equal(t, "BreakerState(9)", BreakerState(9).String())
}

func TestBreakerBadConfig(t *testing.T) {
	for _, cfg := range []BreakerConfig{{FailureRatio: -1}, {FailureRatio: 2}, {MinRequests: -1},
		{Window: -1}, {OpenFor: -1}, {Probes: -1}} {
		assert.Panics(t, func() { NewBreaker(cfg) }, "%+v", cfg)
	}
}

func TestBreakerConcurrent(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{MinRequests: 50, OpenFor: time.Millisecond, Clock: clock})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				p, err := b.Allow()
				if err != nil {
					clock.Advance(time.Millisecond)
					continue
				}
				if (i+g)%3 == 0 {
					p.Failure()
				} else {
					p.Success()
				}
				_ = b.State()
			}
		})
	}
	wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	assert.GreaterOrEqual(t, b.probes, 0)
	assert.LessOrEqual(t, b.probes, 1)
}
