// Package workflow is a stub of go.uber.org/cadence/workflow (v1.2.9, public signatures only).
package workflow

import "go.uber.org/cadence/internal"

type (
	Context         = internal.Context
	Future          = internal.Future
	ActivityOptions = internal.ActivityOptions
	RetryPolicy     = internal.RetryPolicy
)

func WithActivityOptions(ctx Context, options ActivityOptions) Context              { return ctx }
func ExecuteActivity(ctx Context, activity interface{}, args ...interface{}) Future { return nil }

func Register(workflowFunc interface{}) {}
