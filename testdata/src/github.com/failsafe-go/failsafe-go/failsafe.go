// Package failsafe is a stub of github.com/failsafe-go/failsafe-go (public signatures only).
package failsafe

import "context"

type Policy[R any] interface {
	ToExecutor(result R) any
}

type Execution[R any] interface {
	Attempts() int
}

type Executor[R any] interface {
	WithContext(ctx context.Context) Executor[R]
	Run(fn func() error) error
	Get(fn func() (R, error)) (R, error)
	RunWithExecution(fn func(exec Execution[R]) error) error
	GetWithExecution(fn func(exec Execution[R]) (R, error)) (R, error)
}

func With[R any](outerPolicy Policy[R], policies ...Policy[R]) Executor[R] { return nil }
func NewExecutor[R any](policies ...Policy[R]) Executor[R]                 { return nil }
func Run(fn func() error, policies ...Policy[any]) error                   { return fn() }
func Get[R any](fn func() (R, error), policies ...Policy[R]) (R, error)    { return fn() }
