package bench

import (
	"context"
	"errors"
	"testing"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	sethvargo "github.com/sethvargo/go-retry"

	"github.com/idemlint/idemlint/runtime/retry"
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
	{"failsafe-go", func(ctx context.Context, succeedOn int) (int, error) {
		n := 0
		err := failsafe.With(failsafeRetry).WithContext(ctx).Run(func() error {
			n++
			if n < succeedOn {
				return errTransient
			}
			return nil
		})
		return n, err
	}},
	{"aws-sdk-go-v2-retry", func(ctx context.Context, succeedOn int) (int, error) {
		n := 0
		err := awsLoop(ctx, awsRetryer, func() error {
			n++
			if n < succeedOn {
				return errTransient
			}
			return nil
		})
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

// failsafeRetry is built once, as its documentation recommends: a policy is shared.
var failsafeRetry = retrypolicy.NewBuilder[any]().
	WithMaxAttempts(4).WithBackoff(time.Nanosecond, 5*time.Second).WithJitterFactor(0.5).Build()

// awsRetryer is aws-sdk-go-v2's standard retryer (shared, as an SDK client shares it), with the
// smallest base delay, errTransient retryable, and no retry quota (the others run without a
// budget; the quota would run dry, as it should, when every call needs two retries).
var awsRetryer = awsretry.NewStandard(func(o *awsretry.StandardOptions) {
	o.MaxAttempts = 4
	o.RateLimiter = ratelimit.None
	o.MaxBackoff = 5 * time.Second
	o.BaseDelay = time.Nanosecond
	o.Retryables = append(o.Retryables, awsretry.IsErrorRetryableFunc(func(err error) aws.Ternary {
		return aws.BoolTernary(errors.Is(err, errTransient))
	}))
})

// awsLoop drives an aws.Retryer the way the SDK's retry middleware does (retry.Attempt): an
// attempt token per attempt, released with the attempt's error; on a retryable error within the
// attempts, a retry token from the quota, the retryer's delay, a sleep. The SDK's own middleware
// does more per attempt (metrics, tracing, clock skew); this is the retryer's share.
func awsLoop(ctx context.Context, r *awsretry.Standard, op func() error) error {
	releaseRetry := func(error) error { return nil }
	for attempt := 1; ; attempt++ {
		release, err := r.GetAttemptToken(ctx)
		if err != nil {
			return err
		}
		err = op()
		_ = releaseRetry(err)
		_ = release(err)
		if err == nil {
			return nil
		}
		if !r.IsErrorRetryable(err) || attempt >= r.MaxAttempts() {
			return err
		}
		if releaseRetry, err = r.GetRetryToken(ctx, err); err != nil {
			return err
		}
		delay, err := r.RetryDelay(attempt, err)
		if err != nil {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
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
			cpu := startCPU()
			for b.Loop() {
				if _, err := c.run(ctx, succeedOn); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b)
		})
	}
}

// BenchmarkSuccess: the call succeeds at once.
func BenchmarkSuccess(b *testing.B) { benchmark(b, 1) }

// BenchmarkThirdAttempt: the call succeeds on the third attempt, after two zero waits.
func BenchmarkThirdAttempt(b *testing.B) { benchmark(b, 3) }

// The call succeeds at once under a 3 s overall bound, set the way each library sets one. Only
// retry.Do's Timeout and a context reach the attempt itself (its context carries the deadline);
// a max elapsed time or duration (cenkalti, sethvargo, failsafe-go) only stops the loop between
// attempts. Libraries with no bound of their own (retry-go, the AWS retryer) take a context made
// with context.WithTimeout per call, as their callers do.
var timeoutContenders = []struct {
	name string
	run  func(ctx context.Context) error
}{
	{"idemlint", func(ctx context.Context) error {
		return retry.Do(ctx, retry.Policy{Timeout: 3 * time.Second}, func(context.Context, retry.Attempt) error { return nil })
	}},
	{"cenkalti-backoff-v5", func(ctx context.Context) error {
		_, err := backoff.Retry(ctx, func() (struct{}, error) { return struct{}{}, nil },
			backoff.WithBackOff(backoff.NewExponentialBackOff()), backoff.WithMaxTries(4), backoff.WithMaxElapsedTime(3*time.Second))
		return err
	}},
	{"avast-retry-go-v4", func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		return avast.Do(func() error { return nil }, avast.Context(ctx), avast.Attempts(4),
			avast.DelayType(avast.FullJitterBackoffDelay))
	}},
	{"failsafe-go", func(ctx context.Context) error {
		return failsafe.With(failsafeRetryTimeout).WithContext(ctx).Run(func() error { return nil })
	}},
	{"aws-sdk-go-v2-retry", func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		return awsLoop(ctx, awsRetryer, func() error { return nil })
	}},
	{"sethvargo-go-retry", func(ctx context.Context) error {
		b := sethvargo.WithMaxRetries(3, sethvargo.WithMaxDuration(3*time.Second,
			sethvargo.WithJitterPercent(50, sethvargo.NewExponential(100*time.Millisecond))))
		return sethvargo.Do(ctx, b, func(context.Context) error { return nil })
	}},
}

var failsafeRetryTimeout = retrypolicy.NewBuilder[any]().
	WithMaxAttempts(4).WithBackoff(100*time.Millisecond, 5*time.Second).WithJitterFactor(0.5).
	WithMaxDuration(3 * time.Second).Build()

// BenchmarkSuccessWithTimeout: the call succeeds at once, under a 3 s overall bound.
func BenchmarkSuccessWithTimeout(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range timeoutContenders {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				if err := c.run(ctx); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b)
		})
	}
}
