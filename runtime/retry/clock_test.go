package retry

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The real clock, with real (tiny) sleeps.
func TestRealClockSleep(t *testing.T) {
	c := realClock{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, ctx := range []context.Context{context.Background(), ctx} {
		start := time.Now()
		assert.NoError(t, c.Sleep(ctx, 2*time.Millisecond))
		assert.GreaterOrEqual(t, time.Since(start), 2*time.Millisecond)
	}

	cancelled, cancelNow := context.WithCancel(context.Background())
	go func() { time.Sleep(time.Millisecond); cancelNow() }()
	start := time.Now()
	assert.ErrorIs(t, c.Sleep(cancelled, time.Minute), context.Canceled)
	assert.Less(t, time.Since(start), 10*time.Second)

	// The recycled timer must not wake the next sleeper early.
	start = time.Now()
	assert.NoError(t, c.Sleep(ctx, 3*time.Millisecond))
	assert.GreaterOrEqual(t, time.Since(start), 3*time.Millisecond)

	assert.ErrorIs(t, c.Sleep(cancelled, 0), context.Canceled, "a zero wait still reports the end of ctx")
	assert.NoError(t, c.Sleep(ctx, -time.Second))
}
