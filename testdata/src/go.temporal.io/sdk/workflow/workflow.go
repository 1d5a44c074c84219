// Package workflow is a stub of go.temporal.io/sdk/workflow (v1.51.0, public signatures only).
package workflow

import (
	"time"

	"go.temporal.io/sdk/internal"
)

type (
	Context              = internal.Context
	Future               = internal.Future
	ActivityOptions      = internal.ActivityOptions
	LocalActivityOptions = internal.LocalActivityOptions
	Info                 = internal.WorkflowExecution
)

func WithActivityOptions(ctx Context, options ActivityOptions) Context           { return ctx }
func WithLocalActivityOptions(ctx Context, options LocalActivityOptions) Context { return ctx }
func ExecuteActivity(ctx Context, activity any, args ...any) Future              { return nil }
func ExecuteLocalActivity(ctx Context, activity any, args ...any) Future         { return nil }
func GetLogger(ctx Context) internal.Logger                                      { return nil }

type SideEffectFunc = func(ctx Context) interface{}

type EncodedValue interface {
	Get(valuePtr interface{}) error
}

func SideEffect(ctx Context, f func(ctx Context) interface{}) EncodedValue { return nil }

func Sleep(ctx Context, d time.Duration) (err error) { return nil }
func NewTimer(ctx Context, d time.Duration) Future   { return nil }
