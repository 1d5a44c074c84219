package retry

import (
	"context"
	"errors"
	"slices"
	"time"
)

// Attempt describes the attempt that the function passed to [Do] is asked to make.
type Attempt struct {
	Number int   // 1 for the first attempt
	Prev   error // the previous attempt's error; nil on the first attempt
}

// Do calls fn until it succeeds, under policy p: it returns nil at the first success, or an
// [*Error] that wraps the reason for stopping and the last attempt's error.
//
// Each attempt gets a context that ends at p.AttemptTimeout or at the overall deadline
// (the earlier of ctx's deadline and p.Timeout), whichever comes first; it is cancelled
// when fn returns, so fn must be done with it by then. Do stops without retrying when
// the error is not retryable (p.Classify), when ctx ends, after p.MaxAttempts, when the
// next wait would cross the overall deadline (it never sleeps past it), when the budget
// is exhausted, or when the breaker is open. A nil ctx or fn, or an invalid p, make it
// return an error wrapping [ErrInvalid] without calling fn.
//
// On success Do allocates nothing, unless p sets Timeout (and the context has no earlier deadline)
// or AttemptTimeout: then the context that carries the deadline to fn is made (the allocations of
// context.WithDeadline), once per call for Timeout, once per attempt for AttemptTimeout.
func Do(ctx context.Context, p Policy, fn func(ctx context.Context, a Attempt) error) error {
	if fn == nil {
		return invalid("nil function")
	}
	_, err := run(ctx, &p, func(ctx context.Context, a Attempt) (struct{}, error) {
		return struct{}{}, fn(ctx, a)
	})
	return err
}

// DoValue is [Do] for a function that returns a value: the value of the successful
// attempt, or the zero value with the error.
func DoValue[T any](ctx context.Context, p Policy, fn func(ctx context.Context, a Attempt) (T, error)) (T, error) {
	if fn == nil {
		var zero T
		return zero, invalid("nil function")
	}
	return run(ctx, &p, fn)
}

func run[T any](ctx context.Context, p *Policy, fn func(context.Context, Attempt) (T, error)) (T, error) {
	var zero T
	if ctx == nil {
		return zero, invalid("nil context")
	}
	if err := p.Validate(); err != nil {
		return zero, err
	}
	if err := ctx.Err(); err != nil {
		return zero, stop(stopReason(err), 0, nil, nil)
	}
	clock := clockOr(p.Clock)
	deadline, hasDeadline := ctx.Deadline()
	if hasDeadline && p.Clock != nil {
		deadline = clock.Now().Add(time.Until(deadline)) // into the injected clock's time
	}
	// The overall deadline reaches fn through the attempt's context: one context for the whole
	// call, or, with AttemptTimeout, one per attempt carrying the earlier of the two deadlines.
	var timeout time.Time // Timeout's deadline in real time, when it is the earlier one
	if p.Timeout > 0 {
		now := time.Now()
		if p.Clock != nil {
			now = clock.Now()
		}
		if end := now.Add(p.Timeout); !hasDeadline || end.Before(deadline) {
			deadline, hasDeadline = end, true
			timeout = end
			if p.Clock != nil {
				timeout = time.Now().Add(p.Timeout)
			}
			if p.AttemptTimeout == 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, timeout)
				defer cancel()
				timeout = time.Time{} // ctx carries it
			}
		}
	}
	if p.Budget != nil {
		p.Budget.Request()
	}
	var (
		last  error
		wait  time.Duration
		first [8]error // the attempts' errors, without allocating for the first ones
		errs  = first[:0]
	)
	for n := 1; ; n++ {
		permit, err := p.Breaker.Allow()
		if err != nil {
			return zero, stop(err, n-1, last, errs)
		}
		actx, cancel := ctx, context.CancelFunc(nil)
		if p.AttemptTimeout > 0 {
			end := time.Now().Add(p.AttemptTimeout)
			if !timeout.IsZero() && timeout.Before(end) {
				end = timeout
			}
			actx, cancel = context.WithDeadline(ctx, end)
		}
		v, err := fn(actx, Attempt{Number: n, Prev: last})
		if cancel != nil {
			cancel()
		}
		if err == nil && p.RetryResult != nil && p.RetryResult(v) {
			err = &ResultError{Result: v}
		}
		if err == nil {
			permit.Success()
			return v, nil
		}
		last = err
		errs = append(errs, err)
		if cerr := ended(ctx, timeout); cerr != nil { // the caller's end, or the overall deadline
			if errors.Is(cerr, context.Canceled) {
				permit.Abandon() // the caller gave up: that says nothing of the dependency
			} else {
				permit.Failure() // it did not answer in time
			}
			return zero, stop(stopReason(cerr), n, err, errs)
		}
		if _, rejected := err.(*ResultError); rejected {
			permit.Success() // the dependency answered
		} else {
			permit.Done(err)
		}
		if !p.retryable(err) {
			return zero, stop(ErrPermanent, n, err, errs)
		}
		if n >= p.maxAttempts() {
			return zero, stop(ErrAttemptsExhausted, n, err, errs)
		}
		now := clock.Now()
		wait = p.wait(n, err, wait)
		asked := retryAfter(err, now)
		if asked > p.maxDelay() && !hasDeadline {
			return zero, stop(ErrRetryAfterTooLong, n, err, errs)
		}
		wait = max(wait, asked) // never earlier than the server asked
		if hasDeadline && !now.Add(wait).Before(deadline) {
			return zero, stop(ErrDeadline, n, err, errs)
		}
		if p.Breaker.openAfter(wait) {
			return zero, stop(ErrBreakerOpen, n, err, errs)
		}
		if p.Budget != nil && !p.Budget.AllowRetry() {
			return zero, stop(ErrBudgetExhausted, n, err, errs)
		}
		if p.OnRetry != nil {
			p.OnRetry(ctx, RetryInfo{Attempt: n, Err: err, Delay: wait, RetryAfter: asked})
		}
		if wait > 0 {
			if err := clock.Sleep(ctx, wait); err != nil {
				return zero, stop(stopReason(err), n, last, errs)
			}
		}
	}
}

// ended returns why the call must stop: ctx ended, or the deadline timeout (real time, zero for
// none) passed; nil if neither.
func ended(ctx context.Context, timeout time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !timeout.IsZero() && !time.Now().Before(timeout) {
		return context.DeadlineExceeded
	}
	return nil
}

func stop(reason error, attempts int, last error, errs []error) error {
	return &Error{Reason: reason, Attempts: attempts, Last: last, Errors: slices.Clone(errs)}
}
