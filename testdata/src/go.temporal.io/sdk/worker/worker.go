// Package worker is a stub of go.temporal.io/sdk/worker (v1.51.0, public signatures only).
package worker

import (
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
)

type (
	Worker interface {
		Registry
		Start() error
		Run(interruptCh <-chan interface{}) error
		Stop()
	}

	Registry interface {
		WorkflowRegistry
		ActivityRegistry
	}

	WorkflowRegistry interface {
		RegisterWorkflow(w interface{})
	}

	ActivityRegistry interface {
		RegisterActivity(a any)
		RegisterActivityWithOptions(a any, options activity.RegisterOptions)
	}

	Options struct{ MaxConcurrentActivityExecutionSize int }
)

func New(client client.Client, taskQueue string, options Options) Worker { return nil }

func InterruptCh() <-chan interface{} { return nil }
