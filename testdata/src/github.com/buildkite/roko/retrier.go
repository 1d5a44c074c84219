// Package roko is a stand-in for github.com/buildkite/roko v1 with its API's shape.
package roko

import (
	"context"
	"time"
)

type Retrier struct{ next time.Duration }

type Strategy func(*Retrier) time.Duration

type RetrierOpt func(*Retrier)

func Constant(interval time.Duration) (Strategy, string) {
	return func(*Retrier) time.Duration { return interval }, "constant"
}
func Exponential(base, adjustment time.Duration) (Strategy, string) {
	return func(*Retrier) time.Duration { return base + adjustment }, "exponential"
}
func ExponentialSubsecond(initial time.Duration) (Strategy, string) {
	return func(*Retrier) time.Duration { return initial }, "exponential"
}
func WithMaxAttempts(maxAttempts int) RetrierOpt                      { return nil }
func WithStrategy(strategy Strategy, strategyType string) RetrierOpt { return nil }
func WithJitter() RetrierOpt                                          { return nil }
func WithJitterRange(min, max time.Duration) RetrierOpt               { return nil }
func TryForever() RetrierOpt                                          { return nil }
func WithSleepFunc(f func(time.Duration)) RetrierOpt                  { return nil }
func NewRetrier(opts ...RetrierOpt) *Retrier                          { return &Retrier{} }

func (r *Retrier) Break()                          {}
func (r *Retrier) SetNextInterval(d time.Duration) { r.next = d }
func (r *Retrier) NextInterval() time.Duration     { return r.next }
func (r *Retrier) AttemptCount() int               { return 0 }
func (r *Retrier) String() string                  { return "" }
func (r *Retrier) Do(callback func(*Retrier) error) error {
	return r.DoWithContext(context.Background(), callback)
}
func (r *Retrier) DoWithContext(ctx context.Context, callback func(*Retrier) error) error {
	return callback(r)
}
func DoFunc[T any](ctx context.Context, r *Retrier, callback func(*Retrier) (T, error)) (T, error) {
	return callback(r)
}
