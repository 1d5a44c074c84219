// Package worker is a stub of go.uber.org/cadence/worker (v1.2.9, public signatures only).
package worker

import "go.uber.org/cadence/activity"

type (
	Worker interface {
		Registry
		Start() error
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
		RegisterActivity(a interface{})
		RegisterActivityWithOptions(a interface{}, options activity.RegisterOptions)
	}
	Options struct{}
)

func New(service interface{}, domain, taskList string, options Options) Worker { return nil }
