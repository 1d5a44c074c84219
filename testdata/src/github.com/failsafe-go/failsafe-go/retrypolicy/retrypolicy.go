// Package retrypolicy is a stub of github.com/failsafe-go/failsafe-go/retrypolicy.
package retrypolicy

import (
	"time"

	"github.com/failsafe-go/failsafe-go"
)

type RetryPolicy[R any] interface {
	failsafe.Policy[R]
}

type Builder[R any] interface {
	HandleErrors(errs ...error) Builder[R]
	WithMaxRetries(maxRetries int) Builder[R]
	WithMaxAttempts(maxAttempts int) Builder[R]
	WithDelay(delay time.Duration) Builder[R]
	WithBackoff(delay time.Duration, maxDelay time.Duration) Builder[R]
	WithJitter(jitter time.Duration) Builder[R]
	WithJitterFactor(jitterFactor float32) Builder[R]
	WithMaxDuration(maxDuration time.Duration) Builder[R]
	Build() RetryPolicy[R]
}

func NewBuilder[R any]() Builder[R]       { return nil }
func WithDefaults[R any]() RetryPolicy[R] { return nil }
