// Package activity is a stub of go.temporal.io/sdk/activity (v1.51.0, public signatures only).
package activity

import (
	"context"

	"go.temporal.io/sdk/internal"
)

type (
	Info            = internal.ActivityInfo
	RegisterOptions = internal.RegisterActivityOptions
)

func GetInfo(ctx context.Context) Info                         { return internal.GetActivityInfo(ctx) }
func GetLogger(ctx context.Context) internal.Logger            { return internal.GetActivityLogger(ctx) }
func RecordHeartbeat(ctx context.Context, details ...any)      {}
func HasHeartbeatDetails(ctx context.Context) bool             { return false }
func GetHeartbeatDetails(ctx context.Context, d ...any) error  { return nil }
func GetWorkerStopChannel(ctx context.Context) <-chan struct{} { return nil }
func IsActivity(ctx context.Context) bool                      { return true }
