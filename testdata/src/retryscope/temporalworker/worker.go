// Package temporalworker registers activities of another package: those that package runs
// already (FrameworkFact) are its own; the others are scopes here, at the registration.
package temporalworker

import (
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"retryscope/temporal"
)

func Run(c client.Client) error {
	w := worker.New(c, "billing", worker.Options{})
	w.RegisterActivity(&temporal.Activities{})
	w.RegisterActivity(temporal.Once) // want `workflow activity \(Temporal, retryscope/temporal.Once\): attempts=unbounded wait=backoff deadline=unknown`
	return w.Run(worker.InterruptCh())
}
