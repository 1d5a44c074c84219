// Package internal is a stub of go.temporal.io/sdk/internal (v1.51.0): the types that the
// public packages alias.
package internal

import (
	"context"
	"time"
)

type Context interface {
	Done() Channel
	Value(key interface{}) interface{}
}

type Channel interface{}

type Future interface {
	Get(ctx Context, valuePtr interface{}) error
	IsReady() bool
}

type WorkflowExecution struct {
	ID    string
	RunID string
}

type ActivityType struct{ Name string }

type ActivityInfo struct {
	TaskToken              []byte
	WorkflowType           *WorkflowType
	WorkflowNamespace      string
	WorkflowExecution      WorkflowExecution
	ActivityID             string
	ActivityType           ActivityType
	TaskQueue              string
	HeartbeatTimeout       time.Duration
	ScheduleToCloseTimeout time.Duration
	StartToCloseTimeout    time.Duration
	ScheduledTime          time.Time
	StartedTime            time.Time
	Deadline               time.Time
	Attempt                int32
	IsLocalActivity        bool
}

type WorkflowType struct{ Name string }

type RetryPolicy struct {
	InitialInterval        time.Duration
	BackoffCoefficient     float64
	MaximumInterval        time.Duration
	MaximumAttempts        int32
	NonRetryableErrorTypes []string
}

type ActivityOptions struct {
	TaskQueue              string
	ScheduleToCloseTimeout time.Duration
	ScheduleToStartTimeout time.Duration
	StartToCloseTimeout    time.Duration
	HeartbeatTimeout       time.Duration
	WaitForCancellation    bool
	ActivityID             string
	RetryPolicy            *RetryPolicy
}

type LocalActivityOptions struct {
	ScheduleToCloseTimeout time.Duration
	StartToCloseTimeout    time.Duration
	RetryPolicy            *RetryPolicy
}

type RegisterActivityOptions struct {
	Name                          string
	DisableAlreadyRegisteredCheck bool
	SkipInvalidStructFunctions    bool
}

type Logger interface {
	Debug(msg string, keyvals ...interface{})
	Info(msg string, keyvals ...interface{})
	Warn(msg string, keyvals ...interface{})
	Error(msg string, keyvals ...interface{})
}

func GetActivityInfo(ctx context.Context) ActivityInfo { return ActivityInfo{} }
func GetActivityLogger(ctx context.Context) Logger     { return nil }
