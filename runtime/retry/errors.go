package retry

import (
	"context"
	"errors"
	"fmt"
)

// Reasons why Do stops, matched with errors.Is on the error it returns. A stop caused by
// the caller's context matches context.Canceled instead; ErrDeadline also matches
// context.DeadlineExceeded.
var (
	// ErrAttemptsExhausted: the last allowed attempt failed with a retryable error.
	ErrAttemptsExhausted = errors.New("attempts exhausted")
	// ErrDeadline: the overall deadline passed, or the next wait would have crossed it.
	ErrDeadline error = deadlineError{}
	// ErrPermanent: the error is not worth retrying (marked Permanent, or classified so).
	ErrPermanent = errors.New("permanent error")
	// ErrBudgetExhausted: the dependency's retry budget has no token left.
	ErrBudgetExhausted = errors.New("retry budget exhausted")
	// ErrBreakerOpen: the dependency's circuit breaker rejects calls.
	ErrBreakerOpen = errors.New("circuit breaker open")
	// ErrRetryAfterTooLong: with no deadline to bound the wait, the server asked (Retry-After)
	// for a wait longer than MaxDelay; Do neither retries earlier than asked nor waits unbounded.
	ErrRetryAfterTooLong = errors.New("the server asked to wait (Retry-After) longer than MaxDelay, with no deadline")
)

type deadlineError struct{}

func (deadlineError) Error() string { return "deadline" }

func (deadlineError) Is(target error) bool { return target == context.DeadlineExceeded }

// Error is the error Do returns when it gives up. It wraps both the reason (one of the
// Err* variables above, or context.Canceled) and the last attempt's error, so errors.Is
// and errors.As see through it to either.
type Error struct {
	Reason   error   // why Do stopped
	Attempts int     // attempts made
	Last     error   // the last attempt's error; nil if no attempt was made
	Errors   []error // every attempt's error, in order (Last is the last one)
}

func (e *Error) Error() string {
	if e.Last == nil {
		return fmt.Sprintf("retry: %v before the first attempt", e.Reason)
	}
	s := "s"
	if e.Attempts == 1 {
		s = ""
	}
	return fmt.Sprintf("retry: %v after %d attempt%s: %v", e.Reason, e.Attempts, s, e.Last)
}

func (e *Error) Unwrap() []error {
	if e.Last == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.Last}
}

// ErrResultRejected is matched by a [*ResultError].
var ErrResultRejected = errors.New("result rejected")

// ResultError is the error of an attempt that returned no error but whose value
// [Policy].RetryResult rejected.
type ResultError struct {
	Result any // the attempt's value
}

func (e *ResultError) Error() string        { return fmt.Sprintf("result %v rejected", e.Result) }
func (e *ResultError) Is(target error) bool { return target == ErrResultRejected }

// stopReason maps the end of a context to a stopping reason.
func stopReason(ctxErr error) error {
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		return ErrDeadline
	}
	return ctxErr
}
