package retry

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/retry/retrytest"
	"github.com/stretchr/testify/assert"
)

func TestBudgetRatio(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBudget(BudgetConfig{MinPerSecond: 1, TTL: time.Second, Clock: clock}) // ratio 0.1
	for range 100 {
		b.Request()
	}
	allowed := 0
	for range 50 {
		if b.AllowRetry() {
			allowed++
		}
	}
	assert.Equal(t, 11, allowed, "10% of 100 requests, plus the floor of 1 per second")
}

func TestBudgetFloor(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBudget(BudgetConfig{MinPerSecond: 3, TTL: 2 * time.Second, Clock: clock})
	allowed := 0
	for range 20 {
		if b.AllowRetry() {
			allowed++
		}
	}
	assert.Equal(t, 6, allowed, "3 per second over a 2 s TTL, with no request at all")
}

func TestBudgetDefaults(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBudget(BudgetConfig{Clock: clock})
	for range 1000 {
		b.Request()
	}
	allowed := 0
	for range 1000 {
		if b.AllowRetry() {
			allowed++
		}
	}
	assert.Equal(t, 100+10*10, allowed, "10% of requests plus 10 per second over 10 s")
}

func TestBudgetTokensExpire(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBudget(BudgetConfig{Ratio: 1, MinPerSecond: 1, TTL: time.Second, Clock: clock})
	for range 10 {
		b.Request()
	}
	clock.Advance(2 * time.Second)
	allowed := 0
	for range 20 {
		if b.AllowRetry() {
			allowed++
		}
	}
	assert.Equal(t, 1, allowed, "the deposits expired; only the floor is left")

	clock.Advance(2 * time.Second)
	assert.True(t, b.AllowRetry(), "spent tokens expire too")
}

func TestBudgetBadConfig(t *testing.T) {
	for _, cfg := range []BudgetConfig{{Ratio: -0.1}, {Ratio: 1.5}, {MinPerSecond: -1}, {TTL: -time.Second}} {
		assert.Panics(t, func() { NewBudget(cfg) }, "%+v", cfg)
	}
	assert.NotPanics(t, func() { NewBudget(BudgetConfig{Ratio: 1}) })
}

func TestBudgetConcurrent(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBudget(BudgetConfig{Ratio: 0.5, MinPerSecond: 1, TTL: time.Second, Clock: clock})
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Request()
				if b.AllowRetry() {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, allowed.Load(), int64(1+400), "never more than the floor plus half the requests")
	assert.GreaterOrEqual(t, allowed.Load(), int64(400))
}
