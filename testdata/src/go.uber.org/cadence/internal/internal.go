// Package internal is a stub of go.uber.org/cadence/internal (v1.2.9): the types that the
// public packages alias.
package internal

import "time"

type Context interface {
	Value(key interface{}) interface{}
}

type Future interface {
	Get(ctx Context, valuePtr interface{}) error
}

type WorkflowExecution struct {
	ID    string
	RunID string
}

type ActivityType struct{ Name string }

type ActivityInfo struct {
	TaskToken         []byte
	WorkflowDomain    string
	WorkflowExecution WorkflowExecution
	ActivityID        string
	ActivityType      ActivityType
	TaskList          string
	Attempt           int32
}

type RetryPolicy struct {
	InitialInterval          time.Duration
	BackoffCoefficient       float64
	MaximumInterval          time.Duration
	ExpirationInterval       time.Duration
	MaximumAttempts          int32
	NonRetriableErrorReasons []string
}

type ActivityOptions struct {
	TaskList               string
	ScheduleToCloseTimeout time.Duration
	ScheduleToStartTimeout time.Duration
	StartToCloseTimeout    time.Duration
	HeartbeatTimeout       time.Duration
	ActivityID             string
	RetryPolicy            *RetryPolicy
}

type LocalActivityOptions struct {
	ScheduleToCloseTimeout time.Duration
	RetryPolicy            *RetryPolicy
}

type RegisterActivityOptions struct {
	Name                          string
	DisableAlreadyRegisteredCheck bool
}
