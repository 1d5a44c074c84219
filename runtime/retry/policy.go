package retry

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Defaults used for the zero fields of a [Policy].
const (
	DefaultMaxAttempts   = 4
	DefaultBaseDelay     = 100 * time.Millisecond
	DefaultMaxDelay      = 5 * time.Second
	DefaultJitterPercent = 20
)

// Jitter selects how a Policy randomises its exponential backoff
// d = min(MaxDelay, BaseDelay * 2^(n-1)) before retry n.
type Jitter uint8

const (
	// JitterFull waits a random duration in [0, d] (the default).
	JitterFull Jitter = iota
	// JitterEqual waits a random duration in [d/2, d].
	JitterEqual
	// JitterDecorrelated waits a random duration in [BaseDelay, 3 * previous wait], capped.
	JitterDecorrelated
	// JitterProportional waits d +- JitterPercent percent, capped.
	JitterProportional
)

// Policy configures [Do]. Its zero value is usable and safe: 4 attempts, full jitter on a
// 100 ms base capped at 5 s, the default classifier, bounded by the context's deadline.
// Zero fields take the defaults; negative values make Do fail with [ErrInvalid] before
// any attempt. A Policy is a plain value: share it freely, it is never modified.
type Policy struct {
	// MaxAttempts bounds the number of attempts, the first one included (1: no retry).
	MaxAttempts int
	// BaseDelay is the backoff before the first retry; it doubles on every retry. Zero
	// means 100 ms: for next to no wait, use time.Nanosecond (a zero wait is not slept).
	BaseDelay time.Duration
	// MaxDelay caps each backoff wait. A server's Retry-After is honoured in full, above
	// MaxDelay too, when the wait ends before the overall deadline; past the deadline Do stops
	// with ErrDeadline, and without a deadline a Retry-After above MaxDelay stops it with
	// ErrRetryAfterTooLong. Do never retries earlier than the server asked.
	MaxDelay time.Duration
	// Timeout is the overall deadline, counted from the call to Do; the context's own
	// deadline applies too, whichever is earlier. Do never sleeps past it: when the next
	// wait would cross it, Do returns at once with ErrDeadline. Zero: the context's deadline
	// only (the loop is still bounded by MaxAttempts and MaxDelay).
	Timeout time.Duration
	// AttemptTimeout bounds each attempt; the attempt's context ends at the earlier of it
	// and the overall deadline. Zero: attempts are bounded by the overall deadline only.
	AttemptTimeout time.Duration
	// Jitter selects the jitter; the zero value is JitterFull.
	Jitter Jitter
	// JitterPercent is the spread of JitterProportional, in (0, 100]; zero means 20.
	JitterPercent int
	// Idempotent declares the operation safe to repeat (a read, an upsert, a write guarded by a
	// version or deduplicated by a key the function sends): every transient error is retried,
	// even one that leaves unknown whether the request took effect (a reset connection, a
	// timeout, gRPC UNAVAILABLE). Without it the default classifier retries those only for HTTP
	// requests with an idempotent method or an Idempotency-Key (see [IsRetryable]); failures that
	// prove the request never left are retried either way.
	Idempotent bool
	// Classify reports whether an attempt's error is worth another attempt. Nil means
	// [IsRetryable] ([IsTransient] when Idempotent). Whatever it says, Do never retries an
	// error marked [Permanent] nor one that comes with the end of the caller's context.
	Classify func(err error) bool
	// Delay, if set, returns the wait before retry n (n = 1 after the first attempt), given the
	// failed attempt's error, instead of the backoff and its jitter. MaxDelay caps it, a negative
	// wait is none, and a server's Retry-After still lengthens it.
	Delay func(n int, err error) time.Duration
	// RetryResult, if set, reports whether the value of an attempt that returned no error still
	// calls for another attempt (a job still pending; DoValue's value, nil for Do). Such an
	// attempt fails with a [*ResultError] that holds the value and is retried, within the
	// policy's bounds, like a transient error; the breaker counts it as a success (the
	// dependency answered). Boxing the value into an interface may allocate.
	RetryResult func(result any) bool
	// Budget, if set, limits retries to a share of the requests to one dependency.
	Budget *Budget
	// Breaker, if set, is the circuit breaker of the dependency; every attempt asks it.
	Breaker *Breaker
	// OnRetry, if set, is called before each wait, for logging and metrics.
	OnRetry func(ctx context.Context, r RetryInfo)
	// Clock and Rand replace the real clock and random source, for tests.
	Clock Clock
	Rand  Rand
}

// RetryInfo describes a retry that is about to happen.
type RetryInfo struct {
	Attempt    int           // number of the attempt that failed, from 1
	Err        error         // its error
	Delay      time.Duration // the wait before the next attempt
	RetryAfter time.Duration // the server's requested wait (Retry-After), or 0
}

// Validate reports the first invalid field of p, as an error wrapping [ErrInvalid].
func (p Policy) Validate() error {
	switch {
	case p.MaxAttempts < 0:
		return invalid("negative MaxAttempts")
	case p.BaseDelay < 0:
		return invalid("negative BaseDelay")
	case p.MaxDelay < 0:
		return invalid("negative MaxDelay")
	case p.Timeout < 0:
		return invalid("negative Timeout")
	case p.AttemptTimeout < 0:
		return invalid("negative AttemptTimeout")
	case p.Jitter > JitterProportional:
		return invalid(fmt.Sprintf("unknown Jitter %d", p.Jitter))
	case p.JitterPercent < 0 || p.JitterPercent > 100:
		return invalid("JitterPercent outside [0, 100]")
	}
	return nil
}

func invalid(msg string) error { return fmt.Errorf("%w: %s", ErrInvalid, msg) }

// ErrInvalid is wrapped by the error of a call to Do that cannot run: an invalid Policy,
// a nil context or a nil function.
var ErrInvalid = errors.New("retry: invalid use")

func (p *Policy) maxAttempts() int {
	if p.MaxAttempts == 0 {
		return DefaultMaxAttempts
	}
	return p.MaxAttempts
}

func (p *Policy) baseDelay() time.Duration {
	if p.BaseDelay == 0 {
		return DefaultBaseDelay
	}
	return p.BaseDelay
}

func (p *Policy) maxDelay() time.Duration {
	if p.MaxDelay == 0 {
		return DefaultMaxDelay
	}
	return p.MaxDelay
}

// delay returns the jittered wait before retry n, given the previous wait.
func (p *Policy) delay(r Rand, n int, prev time.Duration) time.Duration {
	base, limit := p.baseDelay(), p.maxDelay()
	switch p.Jitter {
	case JitterEqual:
		return equalJitter(r, Backoff(n, base, limit))
	case JitterDecorrelated:
		if n == 1 {
			prev = base
		}
		return decorrelatedJitter(r, prev, base, limit)
	case JitterProportional:
		pct := p.JitterPercent
		if pct == 0 {
			pct = DefaultJitterPercent
		}
		return proportionalJitter(r, Backoff(n, base, limit), pct, limit)
	default:
		return fullJitter(r, Backoff(n, base, limit))
	}
}

// wait returns the wait before retry n, after err, given the previous wait.
func (p *Policy) wait(n int, err error, prev time.Duration) time.Duration {
	if p.Delay != nil {
		return min(max(p.Delay(n, err), 0), p.maxDelay())
	}
	return p.delay(randOr(p.Rand), n, prev)
}

func (p *Policy) retryable(err error) bool {
	if _, ok := err.(*ResultError); ok {
		return true
	}
	switch {
	case p.Classify != nil:
		return !markedPermanent(err) && p.Classify(err)
	case p.Idempotent:
		return IsTransient(err)
	}
	return IsRetryable(err)
}
