package bench

import (
	"context"
	"errors"
	"testing"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v5"
	"github.com/idemlint/idemlint/runtime/retry"
	sethvargo "github.com/sethvargo/go-retry"
)

// Every library is set up alike: at most 4 attempts, exponential backoff with jitter, a
// zero base delay (or the smallest one the library accepts), a 5 s cap, and a cancellable
// context, as a request's would be. The operation fails with a transient error until
// attempt `succeedOn`.

var errTransient = errors.New("transient")

// contender runs one logical call, succeeding on attempt succeedOn, and returns the number
// of attempts made.
type contender struct {
	name string
	run  func(ctx context.Context, succeedOn int) (attempts int, err error)
}

var contenders = []contender{
	{"idemlint", func(ctx context.Context, succeedOn int) (int, error) {
		n := 0
		err := retry.Do(ctx, retry.Policy{BaseDelay: time.Nanosecond}, func(context.Context, retry.Attempt) error {
			n++
			if n < succeedOn {
				return markedTransient
			}
			return nil
		})
		return n, err
	}},
	{"cenkalti-backoff-v5", func(ctx context.Context, succeedOn int) (int, error) {
		n := 0
		_, err := backoff.Retry(ctx, func() (struct{}, error) {
			n++
			if n < succeedOn {
				return struct{}{}, errTransient
			}
			return struct{}{}, nil
		},
			backoff.WithBackOff(&backoff.ExponentialBackOff{
				InitialInterval: 0, RandomizationFactor: 0.5, Multiplier: 2, MaxInterval: 5 * time.Second,
			}),
			backoff.WithMaxTries(4))
		return n, err
	}},
	{"avast-retry-go-v4", func(ctx context.Context, succeedOn int) (int, error) {
		n := 0
		err := avast.Do(func() error {
			n++
			if n < succeedOn {
				return errTransient
			}
			return nil
		},
			avast.Context(ctx), avast.Attempts(4), avast.Delay(0), avast.MaxDelay(5*time.Second),
			avast.DelayType(avast.FullJitterBackoffDelay))
		return n, err
	}},
	{"sethvargo-go-retry", func(ctx context.Context, succeedOn int) (int, error) {
		n := 0
		b := sethvargo.WithMaxRetries(3, sethvargo.WithCappedDuration(5*time.Second,
			sethvargo.WithJitterPercent(50, sethvargo.NewExponential(time.Nanosecond))))
		err := sethvargo.Do(ctx, b, func(context.Context) error {
			n++
			if n < succeedOn {
				return sethvargo.RetryableError(errTransient)
			}
			return nil
		})
		return n, err
	}},
}

// markedTransient is made once: marking an error is the caller's cost, not the loop's.
var markedTransient = retry.Transient(errTransient)

// TestContendersAreSetUpAlike checks that each set-up makes the attempts the benchmarks
// assume, and gives up after 4.
func TestContendersAreSetUpAlike(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range contenders {
		for _, succeedOn := range []int{1, 3} {
			n, err := c.run(ctx, succeedOn)
			if err != nil || n != succeedOn {
				t.Errorf("%s, success on attempt %d: %d attempts, %v", c.name, succeedOn, n, err)
			}
		}
		start := time.Now()
		n, err := c.run(ctx, 100)
		if err == nil || n != 4 {
			t.Errorf("%s, never succeeding: %d attempts, error %v; want 4 attempts and an error", c.name, n, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: the zero base delay took %v", c.name, d)
		}
	}
}

func benchmark(b *testing.B, succeedOn int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range contenders {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.run(ctx, succeedOn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSuccess: the call succeeds at once.
func BenchmarkSuccess(b *testing.B) { benchmark(b, 1) }

// BenchmarkThirdAttempt: the call succeeds on the third attempt, after two zero waits.
func BenchmarkThirdAttempt(b *testing.B) { benchmark(b, 3) }
