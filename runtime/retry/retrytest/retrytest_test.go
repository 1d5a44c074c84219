package retrytest

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestClock(t *testing.T) {
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewClock(start)
	assert.Equal(t, start, c.Now())
	assert.NoError(t, c.Sleep(context.Background(), time.Second))
	c.Advance(time.Minute)
	assert.Equal(t, start.Add(time.Minute+time.Second), c.Now())
	assert.Equal(t, []time.Duration{time.Second}, c.Sleeps())

	ctx, cancel := context.WithCancel(context.Background())
	c.OnSleep = func(time.Duration) { cancel() }
	assert.ErrorIs(t, c.Sleep(ctx, time.Hour), context.Canceled)
	assert.Equal(t, start.Add(time.Minute+time.Second), c.Now(), "a cancelled sleep does not move the clock")
	assert.Len(t, c.Sleeps(), 1)
}

func TestRand(t *testing.T) {
	assert.Equal(t, int64(0), Rand(0).Int64N(10))
	assert.Equal(t, int64(9), Rand(1).Int64N(10))
	assert.Equal(t, int64(4), Rand(0.5).Int64N(10))
	assert.Equal(t, int64(0), Rand(-1).Int64N(10))
	assert.Equal(t, int64(9), Rand(2).Int64N(10))
	assert.Equal(t, int64(math.MaxInt64-1), Rand(1).Int64N(math.MaxInt64))
	assert.Equal(t, int64(0), Rand(1).Int64N(1))
}
