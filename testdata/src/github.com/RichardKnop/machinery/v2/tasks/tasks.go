// Package tasks is a stub of github.com/RichardKnop/machinery/v2/tasks (v2.0.16).
package tasks

import (
	"context"
	"time"
)

type Signature struct {
	UUID         string
	Name         string
	RetryCount   int
	RetryTimeout int
}

func SignatureFromContext(ctx context.Context) *Signature { return nil }

type ErrRetryTaskLater struct {
	name, msg string
	retryIn   time.Duration
}

func (e ErrRetryTaskLater) Error() string { return e.msg }

func NewErrRetryTaskLater(msg string, retryIn time.Duration) ErrRetryTaskLater {
	return ErrRetryTaskLater{msg: msg, retryIn: retryIn}
}
