// Package backoff is a stub of github.com/cenkalti/backoff/v5 (public signatures only).
package backoff

import (
	"context"
	"time"
)

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type Operation[T any] func() (T, error)
type Notify func(error, time.Duration)
type retryOptions struct{}
type RetryOption func(*retryOptions)

func Retry[T any](ctx context.Context, operation Operation[T], opts ...RetryOption) (T, error) {
	return operation()
}
func WithBackOff(b BackOff) RetryOption              { return nil }
func WithMaxTries(n uint) RetryOption                { return nil }
func WithMaxElapsedTime(d time.Duration) RetryOption { return nil }
func WithNotify(n Notify) RetryOption                { return nil }

type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }
func (b *ExponentialBackOff) Reset()                     {}
func NewExponentialBackOff() *ExponentialBackOff         { return &ExponentialBackOff{} }

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }
func (b *ConstantBackOff) Reset()                     {}
func NewConstantBackOff(d time.Duration) *ConstantBackOff {
	return &ConstantBackOff{Interval: d}
}

type ZeroBackOff struct{}

func (b *ZeroBackOff) NextBackOff() time.Duration { return 0 }
func (b *ZeroBackOff) Reset()                     {}

func Permanent(err error) error { return err }

const (
	DefaultInitialInterval     = 500 * time.Millisecond
	DefaultRandomizationFactor = 0.5
	DefaultMultiplier          = 1.5
	DefaultMaxInterval         = 60 * time.Second
)
