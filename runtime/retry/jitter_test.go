package retry

import (
	"math"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/retry/retrytest"
	"github.com/stretchr/testify/assert"
)

func TestBackoff(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		n          int
		base, cap  time.Duration
		want       time.Duration
		doubtfully string
	}{
		{1, 100 * ms, 5 * time.Second, 100 * ms, ""},
		{2, 100 * ms, 5 * time.Second, 200 * ms, ""},
		{3, 100 * ms, 5 * time.Second, 400 * ms, ""},
		{7, 100 * ms, 5 * time.Second, 5 * time.Second, "capped"},
		{0, 100 * ms, time.Second, 100 * ms, "n below 1 counts as 1"},
		{-5, 100 * ms, time.Second, 100 * ms, "negative n"},
		{70, 100 * ms, time.Second, time.Second, "shift past 63 bits"},
		{40, time.Duration(math.MaxInt64 / 4), math.MaxInt64, math.MaxInt64, "overflow"},
		{1, 2 * time.Second, time.Second, time.Second, "base above cap"},
		{3, 0, time.Second, 0, "zero base"},
		{3, ms, 0, 0, "zero cap"},
		{3, -ms, time.Second, 0, "negative base"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Backoff(c.n, c.base, c.cap), "Backoff(%d, %v, %v) %s", c.n, c.base, c.cap, c.doubtfully)
	}
}

func TestJitterBoundsWithFakeRand(t *testing.T) {
	d := 1000 * time.Millisecond
	lo, hi := retrytest.Rand(0), retrytest.Rand(1)
	assert.Equal(t, time.Duration(0), fullJitter(lo, d))
	assert.Equal(t, d, fullJitter(hi, d))
	assert.Equal(t, d/2, equalJitter(lo, d))
	assert.Equal(t, d, equalJitter(hi, d))
	assert.Equal(t, 800*time.Millisecond, proportionalJitter(lo, d, 20, time.Hour))
	assert.Equal(t, 1200*time.Millisecond, proportionalJitter(hi, d, 20, time.Hour))
	assert.Equal(t, 1100*time.Millisecond, proportionalJitter(hi, d, 20, 1100*time.Millisecond), "capped")
	assert.Equal(t, 800*time.Millisecond, proportionalJitter(lo, d, 20, 1100*time.Millisecond), "capped range keeps its floor")
	assert.Equal(t, 100*time.Millisecond, decorrelatedJitter(lo, d, 100*time.Millisecond, time.Hour))
	assert.Equal(t, 3*d, decorrelatedJitter(hi, d, 100*time.Millisecond, time.Hour))
	assert.Equal(t, 2*d, decorrelatedJitter(hi, d, 100*time.Millisecond, 2*d), "capped")
	assert.Equal(t, 100*time.Millisecond, decorrelatedJitter(hi, 0, 100*time.Millisecond, time.Hour), "prev below base")
}

func TestJitterBadInputs(t *testing.T) {
	for _, d := range []time.Duration{0, -time.Second} {
		assert.Equal(t, time.Duration(0), FullJitter(d))
		assert.Equal(t, time.Duration(0), EqualJitter(d))
		assert.Equal(t, time.Duration(0), ProportionalJitter(d, 20))
		assert.Equal(t, time.Duration(0), DecorrelatedJitter(time.Second, d, time.Hour))
		assert.Equal(t, time.Duration(0), DecorrelatedJitter(time.Second, time.Second, d))
	}
	assert.Equal(t, time.Second, ProportionalJitter(time.Second, 0), "no spread")
	assert.Equal(t, time.Second, ProportionalJitter(time.Second, -10), "negative percent is no spread")
	got := proportionalJitter(retrytest.Rand(1), time.Second, 500, time.Hour)
	assert.Equal(t, 2*time.Second, got, "percent above 100 clamps to 100")
	got = proportionalJitter(retrytest.Rand(1), math.MaxInt64, 50, math.MaxInt64)
	assert.Equal(t, time.Duration(math.MaxInt64), got, "no overflow")
	assert.GreaterOrEqual(t, fullJitter(retrytest.Rand(1), math.MaxInt64), time.Duration(math.MaxInt64-1), "no overflow")
}

func TestJitterRealRandomStaysInBounds(t *testing.T) {
	d := 10 * time.Millisecond
	var sawLow, sawHigh bool
	for range 2000 {
		f := FullJitter(d)
		assert.True(t, f >= 0 && f <= d, "full %v", f)
		sawLow = sawLow || f < d/4
		sawHigh = sawHigh || f > 3*d/4
		e := EqualJitter(d)
		assert.True(t, e >= d/2 && e <= d, "equal %v", e)
		p := ProportionalJitter(d, 30)
		assert.True(t, p >= 7*time.Millisecond && p <= 13*time.Millisecond, "proportional %v", p)
		c := DecorrelatedJitter(d, time.Millisecond, 20*time.Millisecond)
		assert.True(t, c >= time.Millisecond && c <= 20*time.Millisecond, "decorrelated %v", c)
	}
	assert.True(t, sawLow && sawHigh, "full jitter spreads over its whole range")
}
