// Package activity is a stub of go.uber.org/cadence/activity (v1.2.9, public signatures only).
package activity

import (
	"context"

	"go.uber.org/cadence/internal"
)

type (
	Info            = internal.ActivityInfo
	RegisterOptions = internal.RegisterActivityOptions
)

func Register(activityFunc interface{})                                  {}
func RegisterWithOptions(activityFunc interface{}, opts RegisterOptions) {}
func GetInfo(ctx context.Context) Info                                   { return Info{} }
func RecordHeartbeat(ctx context.Context, details ...interface{})        {}
