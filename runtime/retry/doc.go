// Package retry is the reference retry loop that idemlint's fixes point to: correct by
// default, bounded, jittered, observable and fast, with the standard library only.
//
//	err := retry.Do(ctx, retry.Policy{Idempotent: true}, func(ctx context.Context, a retry.Attempt) error {
//		return readFromDependency(ctx) // a read: safe to repeat
//	})
//
// The zero [Policy] makes at most 4 attempts, waits with full jitter on an exponential
// backoff (100 ms base, 5 s cap), and stops at the context's deadline without ever
// sleeping past it. It retries only transient errors ([IsRetryable]): network failures,
// timeouts, HTTP 408/429/502/503/504 ([HTTPError]) honouring Retry-After, the in-progress 409
// of an idempotency key, and gRPC UNAVAILABLE / RESOURCE_EXHAUSTED; and only when the
// operation is safe to repeat: the request never left (dial, DNS, refused, TLS handshake), it
// is an HTTP request with an idempotent method or an Idempotency-Key, or the policy declares the
// operation idempotent ([Policy].Idempotent). [Permanent] and [Transient] override the
// classifier.
//
// A [Budget] keeps the retries to one dependency under a share of its requests, and a
// [Breaker] stops calling a dependency that keeps failing. Both are shared by every call
// to that dependency and safe for concurrent use.
//
// When Do gives up it returns an [*Error] that wraps the last attempt's error and the
// reason: [ErrAttemptsExhausted], [ErrDeadline], [ErrPermanent], [ErrBudgetExhausted],
// [ErrBreakerOpen], [ErrRetryAfterTooLong], or context.Canceled.
//
// For hand-written loops, [Backoff] and the jitter functions ([FullJitter] and others)
// compute waits. Package retryhttp applies a Policy to an http.Client, and package
// retrytest has a fake clock for tests.
package retry
