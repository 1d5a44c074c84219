package retry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/retry/retrytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	errFlaky = Transient(errors.New("flaky"))
	errBad   = errors.New("bad request")
	epoch    = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
)

// fake returns a policy with a fake clock and the given random fraction.
func fake(p Policy, frac float64) (Policy, *retrytest.Clock) {
	c := retrytest.NewClock(epoch)
	p.Clock, p.Rand = c, retrytest.Rand(frac)
	return p, c
}

// failing returns a function that fails with errs in turn, then succeeds, and a counter.
func failing(errs ...error) (func(context.Context, Attempt) error, *int) {
	calls := 0
	return func(_ context.Context, a Attempt) error {
		calls++
		if a.Number != calls {
			panic("attempt numbers must count calls")
		}
		if calls <= len(errs) {
			return errs[calls-1]
		}
		return nil
	}, &calls
}

func TestDoSucceedsAtOnce(t *testing.T) {
	p, clock := fake(Policy{}, 1)
	fn, calls := failing()
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, 1, *calls)
	assert.Empty(t, clock.Sleeps())
}

func TestZeroPolicyDefaults(t *testing.T) {
	p, clock := fake(Policy{}, 1) // highest jitter: the backoff itself
	fn, calls := failing(errFlaky, errFlaky, errFlaky, errFlaky, errFlaky)
	err := Do(context.Background(), p, fn)
	assert.ErrorIs(t, err, ErrAttemptsExhausted)
	assert.Equal(t, DefaultMaxAttempts, *calls)
	assert.Equal(t, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}, clock.Sleeps())
}

func TestDefaultCap(t *testing.T) {
	p, clock := fake(Policy{MaxAttempts: 10, BaseDelay: time.Second}, 1)
	fn, _ := failing(errFlaky, errFlaky, errFlaky, errFlaky, errFlaky)
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, DefaultMaxDelay, DefaultMaxDelay}, clock.Sleeps())
}

func TestFullJitterIsTheDefault(t *testing.T) {
	p, clock := fake(Policy{}, 0)
	fn, _ := failing(errFlaky, errFlaky)
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Empty(t, clock.Sleeps(), "full jitter's lowest wait is zero, and zero waits are not slept")

	p, clock = fake(Policy{}, 0.5)
	fn, _ = failing(errFlaky, errFlaky)
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, []time.Duration{50 * time.Millisecond, 100 * time.Millisecond}, clock.Sleeps())
}

func TestJitterKinds(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name   string
		p      Policy
		frac   float64
		sleeps []time.Duration
	}{
		{"equal low", Policy{Jitter: JitterEqual}, 0, []time.Duration{50 * ms, 100 * ms, 200 * ms}},
		{"equal high", Policy{Jitter: JitterEqual}, 1, []time.Duration{100 * ms, 200 * ms, 400 * ms}},
		{"proportional default 20%", Policy{Jitter: JitterProportional}, 0, []time.Duration{80 * ms, 160 * ms, 320 * ms}},
		{"proportional 50%", Policy{Jitter: JitterProportional, JitterPercent: 50}, 1, []time.Duration{150 * ms, 300 * ms, 600 * ms}},
		{"proportional capped", Policy{Jitter: JitterProportional, MaxDelay: 250 * ms}, 1, []time.Duration{120 * ms, 240 * ms, 250 * ms}},
		{"decorrelated high", Policy{Jitter: JitterDecorrelated, MaxDelay: 2 * time.Second}, 1, []time.Duration{300 * ms, 900 * ms, 2 * time.Second}},
		{"decorrelated low", Policy{Jitter: JitterDecorrelated}, 0, []time.Duration{100 * ms, 100 * ms, 100 * ms}},
	}
	for _, c := range cases {
		p, clock := fake(c.p, c.frac)
		fn, _ := failing(errFlaky, errFlaky, errFlaky, errFlaky)
		assert.ErrorIs(t, Do(context.Background(), p, fn), ErrAttemptsExhausted, c.name)
		assert.Equal(t, c.sleeps, clock.Sleeps(), c.name)
	}
}

func TestDoValue(t *testing.T) {
	p, _ := fake(Policy{}, 0)
	calls := 0
	v, err := DoValue(context.Background(), p, func(_ context.Context, a Attempt) (string, error) {
		calls++
		if a.Number < 3 {
			return "partial", errFlaky
		}
		return "done", nil
	})
	require.NoError(t, err)
	assert.Equal(t, "done", v)
	assert.Equal(t, 3, calls)

	v, err = DoValue(context.Background(), p, func(context.Context, Attempt) (string, error) {
		return "partial", errBad
	})
	assert.ErrorIs(t, err, errBad)
	assert.Equal(t, "", v, "the zero value goes with an error")
}

func TestAttemptCarriesThePreviousError(t *testing.T) {
	p, _ := fake(Policy{}, 0)
	var prevs []error
	_ = Do(context.Background(), p, func(_ context.Context, a Attempt) error {
		prevs = append(prevs, a.Prev)
		return errFlaky
	})
	assert.Equal(t, []error{nil, errFlaky, errFlaky, errFlaky}, prevs)
}

func TestNonRetryableStopsAtOnce(t *testing.T) {
	p, clock := fake(Policy{}, 1)
	fn, calls := failing(errBad)
	err := Do(context.Background(), p, fn)
	assert.ErrorIs(t, err, ErrPermanent)
	assert.ErrorIs(t, err, errBad, "wraps the last error")
	assert.Equal(t, 1, *calls)
	assert.Empty(t, clock.Sleeps())
	assert.Equal(t, "retry: permanent error after 1 attempt: bad request", err.Error())
}

func TestPermanentMarkBeatsCustomClassifier(t *testing.T) {
	p, _ := fake(Policy{Classify: func(error) bool { return true }}, 0)
	fn, calls := failing(errBad, Permanent(errBad), errBad)
	err := Do(context.Background(), p, fn)
	assert.ErrorIs(t, err, ErrPermanent)
	assert.Equal(t, 2, *calls)
}

func TestCustomClassifier(t *testing.T) {
	p, _ := fake(Policy{Classify: func(err error) bool { return errors.Is(err, errBad) }}, 0)
	fn, calls := failing(errBad, errBad)
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, 3, *calls)

	fn, calls = failing(errFlaky)
	assert.ErrorIs(t, Do(context.Background(), p, fn), ErrPermanent, "the classifier replaces the default")
	assert.Equal(t, 1, *calls)
}

func TestAttemptsExhaustedError(t *testing.T) {
	p, _ := fake(Policy{MaxAttempts: 2}, 0)
	fn, calls := failing(errFlaky, errFlaky, errFlaky)
	err := Do(context.Background(), p, fn)
	assert.Equal(t, 2, *calls)
	var re *Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, &Error{Reason: ErrAttemptsExhausted, Attempts: 2, Last: errFlaky, Errors: []error{errFlaky, errFlaky}}, re)
	assert.Equal(t, "retry: attempts exhausted after 2 attempts: flaky", err.Error())
	assert.ErrorIs(t, err, errFlaky)
	assert.NotErrorIs(t, err, ErrDeadline)
	assert.NotErrorIs(t, err, ErrPermanent)

	p.MaxAttempts = 1
	fn, calls = failing(errFlaky)
	assert.ErrorIs(t, Do(context.Background(), p, fn), ErrAttemptsExhausted)
	assert.Equal(t, 1, *calls, "one attempt means no retry")
}

func TestInvalidUse(t *testing.T) {
	fn, calls := failing()
	bad := []Policy{
		{MaxAttempts: -1}, {BaseDelay: -1}, {MaxDelay: -1}, {Timeout: -1}, {AttemptTimeout: -1},
		{Jitter: JitterProportional + 1}, {JitterPercent: -1}, {JitterPercent: 101},
	}
	for _, p := range bad {
		err := Do(context.Background(), p, fn)
		assert.ErrorIs(t, err, ErrInvalid, "%+v", p)
		assert.Error(t, p.Validate())
	}
	assert.ErrorIs(t, Do(nil, Policy{}, fn), ErrInvalid) //nolint:staticcheck // a nil context is what is tested
	assert.ErrorIs(t, Do(context.Background(), Policy{}, nil), ErrInvalid)
	_, err := DoValue[int](context.Background(), Policy{}, nil)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.Zero(t, *calls, "an invalid call makes no attempt")
	assert.NoError(t, Policy{JitterPercent: 100, Jitter: JitterProportional}.Validate())
}

func TestContextAlreadyDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fn, calls := failing()
	err := Do(ctx, Policy{}, fn)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "retry: context canceled before the first attempt", err.Error())
	assert.Zero(t, *calls)

	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	err = Do(ctx, Policy{}, fn)
	assert.ErrorIs(t, err, ErrDeadline)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Zero(t, *calls)
}

func TestCallerCancelsDuringAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, clock := fake(Policy{}, 1)
	calls := 0
	err := Do(ctx, p, func(ctx context.Context, _ Attempt) error {
		calls++
		cancel()
		return ctx.Err() // a transient-looking error would not change anything
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, ErrDeadline)
	assert.Equal(t, 1, calls)
	assert.Empty(t, clock.Sleeps())
}

// expiringCtx reaches its deadline when the test says so.
type expiringCtx struct {
	context.Context
	expired bool
}

func (c *expiringCtx) Err() error {
	if c.expired {
		return context.DeadlineExceeded
	}
	return nil
}

func TestCallerDeadlineDuringAttemptIsNotRetried(t *testing.T) {
	ctx := &expiringCtx{Context: context.Background()}
	calls := 0
	err := Do(ctx, Policy{}, func(context.Context, Attempt) error {
		calls++
		ctx.expired = true
		return errFlaky
	})
	assert.ErrorIs(t, err, ErrDeadline)
	assert.ErrorIs(t, err, errFlaky)
	assert.Equal(t, 1, calls)
}

func TestCallerCancelsDuringWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, clock := fake(Policy{}, 1)
	clock.OnSleep = func(time.Duration) { cancel() }
	fn, calls := failing(errFlaky, errFlaky)
	err := Do(ctx, p, fn)
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, errFlaky, "wraps the last failure")
	assert.Equal(t, 1, *calls)
}

func TestNeverSleepsPastTheContextDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	p, clock := fake(Policy{MaxAttempts: 10}, 1) // waits 100, 200, ...
	fn, calls := failing(errFlaky, errFlaky, errFlaky, errFlaky)
	err := Do(ctx, p, fn)
	var re *Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, ErrDeadline, re.Reason)
	assert.ErrorIs(t, err, errFlaky)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, 2, *calls, "100 ms fits in 250 ms, 100 + 200 does not")
	assert.Equal(t, []time.Duration{100 * time.Millisecond}, clock.Sleeps())
	assert.Equal(t, "retry: deadline after 2 attempts: flaky", err.Error())
}

func TestPolicyTimeoutIsTheOverallDeadline(t *testing.T) {
	p, clock := fake(Policy{MaxAttempts: 10, Timeout: 350 * time.Millisecond}, 1)
	var deadlines []time.Duration
	err := Do(context.Background(), p, func(ctx context.Context, _ Attempt) error {
		dl, ok := ctx.Deadline()
		require.True(t, ok, "the attempt's context carries the overall deadline")
		deadlines = append(deadlines, time.Until(dl))
		return errFlaky
	})
	assert.ErrorIs(t, err, ErrDeadline)
	assert.Equal(t, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, clock.Sleeps())
	require.Len(t, deadlines, 3)
	assert.InDelta(t, float64(350*time.Millisecond), float64(deadlines[0]), float64(50*time.Millisecond))
}

func TestPolicyTimeoutLongerThanContextDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	p, clock := fake(Policy{MaxAttempts: 10, Timeout: time.Hour}, 1)
	fn, calls := failing(errFlaky, errFlaky, errFlaky)
	assert.ErrorIs(t, Do(ctx, p, fn), ErrDeadline)
	assert.Equal(t, 2, *calls, "the earlier deadline wins")
	assert.Len(t, clock.Sleeps(), 1)
}

func TestAttemptTimeout(t *testing.T) {
	p, _ := fake(Policy{AttemptTimeout: 30 * time.Millisecond, Idempotent: true}, 0) // a read
	var left []time.Duration
	err := Do(context.Background(), p, func(ctx context.Context, a Attempt) error {
		dl, ok := ctx.Deadline()
		require.True(t, ok)
		left = append(left, time.Until(dl))
		if a.Number == 1 {
			<-ctx.Done() // the attempt times out: that is transient, and retried
			return ctx.Err()
		}
		return nil
	})
	require.NoError(t, err)
	require.Len(t, left, 2)
	assert.InDelta(t, float64(30*time.Millisecond), float64(left[1]), float64(20*time.Millisecond))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	p.AttemptTimeout = time.Hour
	_ = Do(ctx, p, func(ctx context.Context, a Attempt) error {
		dl, _ := ctx.Deadline()
		assert.Less(t, time.Until(dl), 20*time.Millisecond, "cut to the overall deadline")
		return nil
	})
}

func TestAttemptContextEndsWhenTheAttemptReturns(t *testing.T) {
	var kept context.Context
	_ = Do(context.Background(), Policy{AttemptTimeout: time.Hour}, func(ctx context.Context, _ Attempt) error {
		kept = ctx
		return nil
	})
	assert.ErrorIs(t, kept.Err(), context.Canceled)
}

func TestRetryAfterIsHonoured(t *testing.T) {
	busy := func(after string) error {
		return &HTTPError{Method: "GET", StatusCode: 429, Header: http.Header{"Retry-After": {after}}}
	}
	p, clock := fake(Policy{MaxAttempts: 5, MaxDelay: 10 * time.Second, Timeout: 2 * time.Minute}, 0)
	var infos []RetryInfo
	p.OnRetry = func(_ context.Context, r RetryInfo) { infos = append(infos, r) }
	date := epoch.Add(70 * time.Second).Format(http.TimeFormat) // asked when the clock reads epoch+61s
	fn, _ := failing(busy("1"), busy("60"), busy(date), busy("garbage"))
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, []time.Duration{time.Second, time.Minute, 9 * time.Second}, clock.Sleeps(),
		"a Retry-After above MaxDelay is honoured when the deadline allows it; a bad one falls back to the jitter, zero here, which is not slept")
	require.Len(t, infos, 4)
	assert.Equal(t, time.Minute, infos[1].RetryAfter, "the hook sees what the server asked")
	assert.Equal(t, time.Minute, infos[1].Delay, "and the wait, never shorter")
}

// Issue 18.7: a Retry-After above MaxDelay is never cut short. Without a deadline to bound the
// wait, Do stops with a clear error rather than retry early or wait without bound.
func TestRetryAfterAboveMaxDelayWithoutADeadlineStops(t *testing.T) {
	p, clock := fake(Policy{MaxDelay: time.Second}, 0)
	fn, calls := failing(&HTTPError{Method: "GET", StatusCode: 429, Header: http.Header{"Retry-After": {"120"}}})
	err := Do(context.Background(), p, fn)
	assert.ErrorIs(t, err, ErrRetryAfterTooLong)
	assert.Equal(t, 1, *calls)
	assert.Empty(t, clock.Sleeps(), "never retried earlier than asked")
	assert.Contains(t, err.Error(), "429 Too Many Requests")
}

func TestRetryAfterDateUsesTheInjectedClock(t *testing.T) {
	p, clock := fake(Policy{}, 0)
	clock.Advance(time.Hour)
	date := epoch.Add(time.Hour + 2*time.Second).Format(http.TimeFormat)
	fn, _ := failing(&HTTPError{Method: "GET", StatusCode: 503, Header: http.Header{"Retry-After": {date}}})
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, []time.Duration{2 * time.Second}, clock.Sleeps())
}

func TestRetryAfterPastTheDeadlineStopsAtOnce(t *testing.T) {
	p, clock := fake(Policy{Timeout: time.Second, MaxDelay: time.Minute}, 0)
	fn, calls := failing(&HTTPError{Method: "GET", StatusCode: 503, Header: http.Header{"Retry-After": {"30"}}})
	err := Do(context.Background(), p, fn)
	assert.ErrorIs(t, err, ErrDeadline)
	assert.Equal(t, 1, *calls)
	assert.Empty(t, clock.Sleeps())
	assert.Contains(t, err.Error(), "503 Service Unavailable")
}

func TestRetryAfterNeverShortensTheBackoff(t *testing.T) {
	p, clock := fake(Policy{BaseDelay: 5 * time.Second, MaxDelay: 10 * time.Second}, 1)
	fn, _ := failing(&HTTPError{Method: "GET", StatusCode: 503, Header: http.Header{"Retry-After": {"1"}}})
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, []time.Duration{5 * time.Second}, clock.Sleeps())
}

func TestOnRetry(t *testing.T) {
	p, _ := fake(Policy{}, 1)
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "trace-1")
	var infos []RetryInfo
	p.OnRetry = func(ctx context.Context, r RetryInfo) {
		assert.Equal(t, "trace-1", ctx.Value(key{}))
		infos = append(infos, r)
	}
	fn, _ := failing(errFlaky, errFlaky)
	require.NoError(t, Do(ctx, p, fn))
	assert.Equal(t, []RetryInfo{
		{Attempt: 1, Err: errFlaky, Delay: 100 * time.Millisecond},
		{Attempt: 2, Err: errFlaky, Delay: 200 * time.Millisecond},
	}, infos)
}

func TestOnRetryIsNotCalledWhenDoStops(t *testing.T) {
	p, _ := fake(Policy{MaxAttempts: 2}, 1)
	n := 0
	p.OnRetry = func(context.Context, RetryInfo) { n++ }
	fn, _ := failing(errFlaky, errFlaky, errFlaky)
	_ = Do(context.Background(), p, fn)
	assert.Equal(t, 1, n)
}

func TestUnkeyedPostIsNotRetried(t *testing.T) {
	p, _ := fake(Policy{}, 0)
	req, _ := http.NewRequest(http.MethodPost, "http://example.test/charges", strings.NewReader("{}"))
	unavailable := &http.Response{StatusCode: 503}
	calls := 0
	err := Do(context.Background(), p, func(context.Context, Attempt) error {
		calls++
		return CheckHTTP(req, unavailable, nil)
	})
	assert.ErrorIs(t, err, ErrPermanent)
	assert.Equal(t, 1, calls)

	req.Header.Set(IdempotencyKeyHeader, "order-42")
	calls = 0
	err = Do(context.Background(), p, func(context.Context, Attempt) error {
		calls++
		return CheckHTTP(req, unavailable, nil)
	})
	assert.ErrorIs(t, err, ErrAttemptsExhausted)
	assert.Equal(t, DefaultMaxAttempts, calls)

	req.Header.Del(IdempotencyKeyHeader)
	fn, calls2 := failing(CheckHTTP(req, nil, urlErr("Post", dialErr(syscall.ECONNREFUSED))))
	require.NoError(t, Do(context.Background(), p, fn), "never sent: retried")
	assert.Equal(t, 2, *calls2)
}

func TestBreakerOpenStopsDo(t *testing.T) {
	p, clock := fake(Policy{MaxAttempts: 10}, 1)
	p.Breaker = NewBreaker(BreakerConfig{MinRequests: 3, Clock: clock})
	fn, calls := failing(errFlaky, errFlaky, errFlaky, errFlaky, errFlaky)
	err := Do(context.Background(), p, fn)
	var re *Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, ErrBreakerOpen, re.Reason)
	assert.Equal(t, 3, re.Attempts)
	assert.ErrorIs(t, err, errFlaky)
	assert.Equal(t, 3, *calls)
	assert.Len(t, clock.Sleeps(), 2, "no wait for a breaker that will still be open")

	fn, calls = failing()
	err = Do(context.Background(), p, fn)
	assert.ErrorIs(t, err, ErrBreakerOpen)
	assert.Equal(t, "retry: circuit breaker open before the first attempt", err.Error())
	assert.Zero(t, *calls, "fails fast")
}

func TestBreakerOpeningDuringTheWaitStopsDo(t *testing.T) {
	p, clock := fake(Policy{}, 1)
	p.Breaker = NewBreaker(BreakerConfig{MinRequests: 2, Clock: clock})
	clock.OnSleep = func(time.Duration) {
		permit, _ := p.Breaker.Allow() // another caller sees the outage meanwhile
		permit.Failure()
	}
	fn, calls := failing(errFlaky)
	err := Do(context.Background(), p, fn)
	var re *Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, &Error{Reason: ErrBreakerOpen, Attempts: 1, Last: errFlaky, Errors: []error{errFlaky}}, re)
	assert.Equal(t, 1, *calls)
	assert.Len(t, clock.Sleeps(), 1)
}

// Issue 18.6: the breaker counts every failure of the dependency, retryable or not: server
// errors, unknown errors, and calls that end at Do's own deadline (a hung dependency).
func TestBreakerCountsEveryFailure(t *testing.T) {
	for name, failure := range map[string]error{
		"500":                    &HTTPError{Method: "GET", StatusCode: 500},
		"unknown":                errors.New("pq: could not serialize"),
		"503 of an unkeyed POST": &HTTPError{Method: "POST", StatusCode: 503},
	} {
		t.Run(name, func(t *testing.T) {
			p, clock := fake(Policy{}, 0)
			p.Breaker = NewBreaker(BreakerConfig{MinRequests: 5, Clock: clock})
			for range 5 {
				fn, _ := failing(failure)
				_ = Do(context.Background(), p, fn)
			}
			assert.Equal(t, Open, p.Breaker.State())
		})
	}
}

func TestBreakerCountsCallsEndedByDosTimeout(t *testing.T) {
	b := NewBreaker(BreakerConfig{MinRequests: 3})
	hung := func(ctx context.Context, _ Attempt) error {
		<-ctx.Done() // the dependency never answers
		return ctx.Err()
	}
	for range 3 {
		err := Do(context.Background(), Policy{Timeout: 10 * time.Millisecond, Breaker: b}, hung)
		require.ErrorIs(t, err, ErrDeadline)
	}
	assert.Equal(t, Open, b.State(), "a hung dependency must open the breaker")

	b = NewBreaker(BreakerConfig{MinRequests: 3})
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		_ = Do(ctx, Policy{Breaker: b}, hung)
		cancel()
	}
	assert.Equal(t, Open, b.State(), "the caller's deadline too")
}

func TestBreakerDoesNotCountAnswersAboutTheRequest(t *testing.T) {
	p, clock := fake(Policy{}, 0)
	p.Breaker = NewBreaker(BreakerConfig{MinRequests: 2, Clock: clock})
	for range 5 {
		fn, _ := failing(&HTTPError{Method: "GET", StatusCode: 404})
		assert.ErrorIs(t, Do(context.Background(), p, fn), ErrPermanent)
	}
	assert.Equal(t, Closed, p.Breaker.State(), "a 404 is an answer, not an outage")
}

func TestBreakerFailurePredicateNarrowsWhatCounts(t *testing.T) {
	p, clock := fake(Policy{}, 0)
	p.Breaker = NewBreaker(BreakerConfig{MinRequests: 2, Clock: clock, IsFailure: IsTransient})
	for range 5 {
		fn, _ := failing(&HTTPError{Method: "GET", StatusCode: 500})
		_ = Do(context.Background(), p, fn)
	}
	assert.Equal(t, Closed, p.Breaker.State(), "narrowed to transient failures: a 500 is not counted")
	for range 6 {
		fn, _ := failing(&HTTPError{Method: "POST", StatusCode: 503})
		_ = Do(context.Background(), p, fn)
	}
	assert.Equal(t, Open, p.Breaker.State(), "6 failures in 11 calls")
}

// Issue 18.3: an error that leaves unknown whether the request arrived is retried only for an
// operation declared safe to repeat.
func TestAmbiguousFailuresAreRetriedOnlyForIdempotentOperations(t *testing.T) {
	reset := &net.OpError{Op: "write", Net: "tcp", Err: syscall.ECONNRESET}
	p, _ := fake(Policy{}, 0)
	fn, calls := failing(reset, reset)
	err := Do(context.Background(), p, fn)
	assert.ErrorIs(t, err, ErrPermanent, "an insert that may have committed is not repeated")
	assert.Equal(t, 1, *calls)

	p.Idempotent = true
	fn, calls = failing(reset, context.DeadlineExceeded)
	require.NoError(t, Do(context.Background(), p, fn), "an upsert may be")
	assert.Equal(t, 3, *calls)

	fn, calls = failing(errBad)
	assert.ErrorIs(t, Do(context.Background(), p, fn), ErrPermanent, "but only transient errors")
	assert.Equal(t, 1, *calls)

	p.Idempotent = false
	fn, calls = failing(&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED})
	require.NoError(t, Do(context.Background(), p, fn), "a request that never left is always retried")
	assert.Equal(t, 2, *calls)
}

func TestBreakerIgnoresTheCallerGivingUp(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	b := NewBreaker(BreakerConfig{MinRequests: 1, Clock: clock})
	for range 3 {
		ctx, cancel := context.WithCancel(context.Background())
		_ = Do(ctx, Policy{Breaker: b, Clock: clock}, func(context.Context, Attempt) error {
			cancel()
			return errFlaky
		})
	}
	assert.Equal(t, Closed, b.State())
}

func TestBudgetExhaustedStopsDo(t *testing.T) {
	clock := retrytest.NewClock(epoch)
	budget := NewBudget(BudgetConfig{Ratio: 1, Burst: 1})
	budget.AllowRetry() // spend the burst: only this call's deposit is left
	p := Policy{Budget: budget, Clock: clock, Rand: retrytest.Rand(0), MaxAttempts: 100}
	fn, calls := failing(errFlaky, errFlaky, errFlaky, errFlaky)
	err := Do(context.Background(), p, fn)
	var re *Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, ErrBudgetExhausted, re.Reason)
	assert.ErrorIs(t, err, errFlaky)
	// 1 token deposited by this call's first attempt: one retry.
	assert.Equal(t, 2, *calls)
	assert.Equal(t, "retry: retry budget exhausted after 2 attempts: flaky", err.Error())
}

func TestDoSuccessAllocatesNothing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	fn := func(context.Context, Attempt) error { return nil }
	shared := Policy{
		MaxAttempts: 3,
		Budget:      NewBudget(BudgetConfig{}),
		Breaker:     NewBreaker(BreakerConfig{}),
		OnRetry:     func(context.Context, RetryInfo) {},
	}
	cases := map[string]struct {
		ctx context.Context
		p   Policy
	}{
		"zero policy, background":          {context.Background(), Policy{}},
		"zero policy, context deadline":    {ctx, Policy{}},
		"budget and breaker":               {ctx, shared},
		"injected clock, context deadline": {ctx, Policy{Clock: retrytest.NewClock(epoch)}},
	}
	for name, c := range cases {
		allocs := testing.AllocsPerRun(1000, func() {
			if err := Do(c.ctx, c.p, fn); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, name)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		v, err := DoValue(ctx, Policy{}, func(context.Context, Attempt) (int, error) { return 7, nil })
		if err != nil || v != 7 {
			t.Fatal(v, err)
		}
	})
	assert.Zero(t, allocs, "DoValue")
}

func TestRetryPathWithoutWaitAllocatesNothing(t *testing.T) {
	// A transient failure retried with no wait: classification and jitter allocate nothing.
	p := Policy{BaseDelay: time.Nanosecond, Rand: retrytest.Rand(0)}
	allocs := testing.AllocsPerRun(1000, func() {
		fn, _ := failing(errFlaky, errFlaky)
		if err := Do(context.Background(), p, fn); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, allocs, 2.0, "only the test's own closure and counter")
}

// Issue 19.2: the recommended shape, Policy{Timeout: 3s}, makes one context on success: the one
// that carries the deadline to fn (context.WithDeadline's allocations), and nothing else. With an
// AttemptTimeout too, the attempt's context carries both deadlines: still one context, not two.
func TestTimeoutCostsOneContext(t *testing.T) {
	fn := func(context.Context, Attempt) error { return nil }
	one := testing.AllocsPerRun(1000, func() {
		_, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Hour))
		cancel()
	})
	for name, p := range map[string]Policy{
		"timeout":                     {Timeout: 3 * time.Second},
		"timeout and attempt timeout": {Timeout: 3 * time.Second, AttemptTimeout: time.Second},
		"attempt timeout":             {AttemptTimeout: time.Second},
		"recommended": {Timeout: 3 * time.Second, Budget: NewBudget(BudgetConfig{}),
			Breaker: NewBreaker(BreakerConfig{})},
	} {
		allocs := testing.AllocsPerRun(1000, func() {
			if err := Do(context.Background(), p, fn); err != nil {
				t.Fatal(err)
			}
		})
		assert.Equal(t, one, allocs, "%s: the deadline's context and nothing else", name)
	}
	assert.LessOrEqual(t, one, 4.0)
}

// Issue 19, from the peer comparison: a custom delay function.
func TestDelayFunction(t *testing.T) {
	p, clock := fake(Policy{MaxAttempts: 4, MaxDelay: time.Minute}, 0.5)
	var got []int
	p.Delay = func(n int, err error) time.Duration {
		got = append(got, n)
		assert.ErrorIs(t, err, errFlaky)
		return time.Duration(n) * 7 * time.Second
	}
	fn, _ := failing(errFlaky, errFlaky, errFlaky)
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, []int{1, 2, 3}, got)
	assert.Equal(t, []time.Duration{7 * time.Second, 14 * time.Second, 21 * time.Second}, clock.Sleeps(), "no jitter on top")

	p.MaxDelay = 10 * time.Second
	p.Delay = func(n int, _ error) time.Duration { return time.Duration(n-2) * time.Hour } // -1 h, 0, 1 h
	clock = retrytest.NewClock(epoch)
	p.Clock = clock
	fn, _ = failing(errFlaky, errFlaky, errFlaky)
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, []time.Duration{10 * time.Second}, clock.Sleeps(), "negative means no wait; MaxDelay caps it")

	p.Delay = func(int, error) time.Duration { return time.Second }
	fn, _ = failing(&HTTPError{Method: "GET", StatusCode: 503, Header: http.Header{"Retry-After": {"5"}}})
	clock = retrytest.NewClock(epoch)
	p.Clock = clock
	require.NoError(t, Do(context.Background(), p, fn))
	assert.Equal(t, []time.Duration{5 * time.Second}, clock.Sleeps(), "Retry-After still lengthens it")
}

// Issue 19, from the peer comparison: retry on a result that is not an error.
func TestRetryResult(t *testing.T) {
	type job struct{ status string }
	p, _ := fake(Policy{MaxAttempts: 5}, 0)
	p.RetryResult = func(v any) bool { return v.(*job).status == "pending" }
	n := 0
	poll := func(context.Context, Attempt) (*job, error) {
		n++
		if n < 3 {
			return &job{"pending"}, nil
		}
		return &job{"done"}, nil
	}
	j, err := DoValue(context.Background(), p, poll)
	require.NoError(t, err)
	assert.Equal(t, "done", j.status)
	assert.Equal(t, 3, n)

	p.MaxAttempts = 2
	n = -10
	j, err = DoValue(context.Background(), p, poll)
	assert.Nil(t, j)
	assert.ErrorIs(t, err, ErrAttemptsExhausted)
	assert.ErrorIs(t, err, ErrResultRejected)
	var rr *ResultError
	require.ErrorAs(t, err, &rr)
	assert.Equal(t, "pending", rr.Result.(*job).status, "the last result is kept")
}

// Issue 19, from the peer comparison: every attempt's error is kept.
func TestErrorKeepsEveryAttemptsError(t *testing.T) {
	errs := []error{Transient(errors.New("one")), Transient(errors.New("two")), Transient(errors.New("three"))}
	p, _ := fake(Policy{MaxAttempts: 3}, 0)
	fn, _ := failing(errs...)
	err := Do(context.Background(), p, fn)
	var re *Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, errs, re.Errors)
	assert.Equal(t, errs[2], re.Last)

	p.MaxAttempts = 20
	many := make([]error, 20)
	for i := range many {
		many[i] = Transient(fmt.Errorf("attempt %d", i+1))
	}
	fn, _ = failing(many...)
	require.ErrorAs(t, Do(context.Background(), p, fn), &re)
	assert.Equal(t, many, re.Errors)
}
