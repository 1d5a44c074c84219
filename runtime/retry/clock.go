package retry

import (
	"context"
	"sync"
	"time"
)

// Clock is the time source of [Do], [Budget] and [Breaker]. Tests inject a fake one
// (see package retrytest); production code leaves it nil to use the real clock.
type Clock interface {
	Now() time.Time
	// Sleep waits for d, or until ctx is done, in which case it returns ctx.Err().
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	done := ctx.Done()
	if done == nil { // a context that never ends
		time.Sleep(d)
		return nil
	}
	t, _ := timers.Get().(*time.Timer)
	if t == nil {
		t = time.NewTimer(d)
	} else {
		t.Reset(d)
	}
	defer timers.Put(t)
	select {
	case <-t.C:
		return nil
	case <-done:
		if !t.Stop() {
			select { // drain, for programs still on the pre-Go 1.23 timer channels
			case <-t.C:
			default:
			}
		}
		return ctx.Err()
	}
}

// timers recycles the timers of Sleep: stopped or drained, ready for Reset.
var timers sync.Pool

func clockOr(c Clock) Clock {
	if c == nil {
		return realClock{}
	}
	return c
}
