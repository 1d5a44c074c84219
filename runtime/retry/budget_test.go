package retry

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// spend asks for up to n retries and returns how many were allowed.
func spend(b *Budget, n int) int {
	allowed := 0
	for range n {
		if b.AllowRetry() {
			allowed++
		}
	}
	return allowed
}

func TestBudgetStartsFullAndEarnsRatioPerRequest(t *testing.T) {
	b := NewBudget(BudgetConfig{Burst: 3}) // ratio 0.1
	assert.Equal(t, 3, spend(b, 50), "a full bucket: Burst retries before any request")
	for range 100 {
		b.Request()
	}
	assert.Equal(t, 3, spend(b, 50), "100 requests earn 10 tokens, but the bucket holds 3")
	for range 25 {
		b.Request()
	}
	assert.Equal(t, 2, spend(b, 50), "25 requests: 2.5 tokens")
	for range 5 {
		b.Request()
	}
	assert.Equal(t, 1, spend(b, 50), "the half token left plus 0.5")
	assert.InDelta(t, 0, b.Tokens(), 1e-9)
}

func TestBudgetDefaults(t *testing.T) {
	b := NewBudget(BudgetConfig{})
	assert.InDelta(t, 10, b.Tokens(), 1e-9)
	assert.Equal(t, 10, spend(b, 1000))
	for range 1000 {
		b.Request()
	}
	assert.Equal(t, 10, spend(b, 1000), "10% of 1000 requests is 100 tokens, capped at the burst of 10")
	for range 50 {
		b.Request()
	}
	assert.Equal(t, 5, spend(b, 1000))
}

// Issue 19.1: the default budget holds near its ratio at every rate. Every request fails and
// wants 3 retries; over 1000 requests, the retries allowed stay near 10% of the requests,
// whether they come at 0.2 or 500 per second. Before, the floor of 10/s x 10 s allowed 300% at
// 0.2 and 1 per second, 210% at 5, 30% at 50 and 20% at 500. The bucket reads no clock, so the
// rate cannot matter: the loop below is the same at every rate.
func TestBudgetHoldsItsRatioAtEveryRate(t *testing.T) {
	b := NewBudget(BudgetConfig{})
	const requests = 1000
	retries := 0
	for range requests {
		b.Request()
		retries += spend(b, 3)
	}
	assert.InDelta(t, 0.1, float64(retries)/requests, 0.015, "%d retries for %d requests", retries, requests)
	assert.LessOrEqual(t, retries, 10+requests/10)
}

func TestBudgetBadConfig(t *testing.T) {
	for _, cfg := range []BudgetConfig{{Ratio: -0.1}, {Ratio: 1.5}, {Burst: -1}} {
		assert.Panics(t, func() { NewBudget(cfg) }, "%+v", cfg)
	}
	assert.NotPanics(t, func() { NewBudget(BudgetConfig{Ratio: 1}) })
}

func TestBudgetConcurrent(t *testing.T) {
	// Interleaved: a deposit into a full bucket is dropped, so how many retries go ahead
	// depends on the schedule; never more than the burst plus half the requests.
	b := NewBudget(BudgetConfig{Ratio: 0.5, Burst: 1})
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
	assert.LessOrEqual(t, allowed.Load(), int64(1+400), "never more than the burst plus half the requests")
	assert.Positive(t, allowed.Load())

	// Deposits, then spends, each from 8 goroutines at once, below the cap: none is lost.
	b = NewBudget(BudgetConfig{Ratio: 0.5, Burst: 1000})
	for b.AllowRetry() {
	}
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Request()
			}
		})
	}
	wg.Wait()
	assert.InDelta(t, 400, b.Tokens(), 1e-9, "every deposit counted")
	allowed.Store(0)
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if b.AllowRetry() {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, 400, allowed.Load(), "every token spent once")
}
