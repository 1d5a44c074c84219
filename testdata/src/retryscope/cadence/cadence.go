// Package cadence is a Cadence worker: activities registered globally and per worker, retried
// only when the workflow gives them a RetryPolicy.
package cadence

import (
	"context"
	"time"

	"go.uber.org/cadence/activity"
	"go.uber.org/cadence/worker"
	"go.uber.org/cadence/workflow"
)

func init() {
	activity.Register(ProvisionAccount)
	activity.Register(NotifyOwner)
	workflow.Register(AccountWorkflow) // a workflow: not retried as an activity
}

// ProvisionAccount is run with a RetryPolicy of 5 attempts.
func ProvisionAccount(ctx context.Context, owner string) error { // want `workflow activity \(Cadence\): attempts=5 wait=backoff deadline=elapsed` ProvisionAccount:`run again by Cadence as a workflow activity`
	return nil
}

// NotifyOwner is run without a RetryPolicy: one attempt, no scope.
func NotifyOwner(ctx context.Context, owner string) error { return nil }

// Archive is registered with a worker, and its options are not in view: attempts unknown.
func Archive(ctx context.Context, id string) error { // want `workflow activity \(Cadence\): attempts=unknown wait=unknown deadline=unknown` Archive:`run again by Cadence as a workflow activity`
	return nil
}

// Audit uses an activity's context: an activity, registered elsewhere.
func Audit(ctx context.Context, id string) error { // want `workflow activity \(Cadence\): attempts=unknown` Audit:`run again by Cadence as a workflow activity`
	info := activity.GetInfo(ctx)
	_ = info.ActivityID
	return nil
}

func Start(w worker.Worker) {
	w.RegisterActivity(Archive)
}

func AccountWorkflow(ctx workflow.Context, owner string) error {
	retried := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &workflow.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 5, ExpirationInterval: time.Hour},
	})
	if err := workflow.ExecuteActivity(retried, ProvisionAccount, owner).Get(ctx, nil); err != nil {
		return err
	}
	plain := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	return workflow.ExecuteActivity(plain, NotifyOwner, owner).Get(ctx, nil)
}
