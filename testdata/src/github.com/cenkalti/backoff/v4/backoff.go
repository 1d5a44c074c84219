// Package backoff is a stub of github.com/cenkalti/backoff/v4 (public signatures only).
package backoff

import (
	"context"
	"time"
)

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type BackOffContext interface {
	BackOff
	Context() context.Context
}

const Stop time.Duration = -1

type Operation func() error
type OperationWithData[T any] func() (T, error)
type Notify func(error, time.Duration)

func Retry(o Operation, b BackOff) error                                { return o() }
func RetryNotify(operation Operation, b BackOff, notify Notify) error   { return operation() }
func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) { return o() }
func RetryNotifyWithData[T any](o OperationWithData[T], b BackOff, n Notify) (T, error) {
	return o()
}

type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
	MaxElapsedTime      time.Duration
	Stop                time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }
func (b *ExponentialBackOff) Reset()                     {}

type ExponentialBackOffOpts func(*ExponentialBackOff)

func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff {
	return &ExponentialBackOff{}
}
func WithRandomizationFactor(f float64) ExponentialBackOffOpts   { return nil }
func WithMaxElapsedTime(d time.Duration) ExponentialBackOffOpts  { return nil }
func WithInitialInterval(d time.Duration) ExponentialBackOffOpts { return nil }

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }
func (b *ConstantBackOff) Reset()                     {}
func NewConstantBackOff(d time.Duration) *ConstantBackOff {
	return &ConstantBackOff{Interval: d}
}

type ZeroBackOff struct{}

func (b *ZeroBackOff) NextBackOff() time.Duration { return 0 }
func (b *ZeroBackOff) Reset()                     {}

type StopBackOff struct{}

func (b *StopBackOff) NextBackOff() time.Duration { return Stop }
func (b *StopBackOff) Reset()                     {}

func WithMaxRetries(b BackOff, max uint64) BackOff              { return b }
func WithContext(b BackOff, ctx context.Context) BackOffContext { return nil }
func Permanent(err error) error                                 { return err }

const (
	DefaultInitialInterval     = 500 * time.Millisecond
	DefaultRandomizationFactor = 0.5
	DefaultMultiplier          = 1.5
	DefaultMaxInterval         = 60 * time.Second
)
