// Package temporal is a Temporal worker: activities registered as a struct and as functions,
// run by a workflow of the same package with options in view.
package temporal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

type ChargeInput struct {
	CustomerID string
	Amount     int64
}

type Activities struct {
	BillingURL string
	HTTP       *http.Client
}

// Charge is run with a RetryPolicy of 3 attempts and an overall timeout.
func (a *Activities) Charge(ctx context.Context, in *ChargeInput) (string, error) { // want `workflow activity \(Temporal\): attempts=3 wait=backoff deadline=elapsed` Charge:`run again by Temporal as a workflow activity`
	body, err := json.Marshal(in)
	if err != nil {
		return "", temporal.NewNonRetryableApplicationError("bad input", "input", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.BillingURL+"/charges", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	resp, err := a.HTTP.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Status, nil
}

// Reserve is run with the default policy: unlimited attempts.
func (a *Activities) Reserve(ctx context.Context, orderID string) error { // want `workflow activity \(Temporal\): attempts=unbounded wait=backoff deadline=none` Reserve:`run again by Temporal as a workflow activity`
	activity.GetLogger(ctx).Info("reserving", "order", orderID)
	return nil
}

// Refund is registered with the struct but not run here: the workflow's options are not in
// view.
func (a *Activities) Refund(ctx context.Context, chargeID string) error { // want `workflow activity \(Temporal\): attempts=unbounded wait=backoff deadline=unknown` Refund:`run again by Temporal as a workflow activity`
	return nil
}

// Not activities: unexported, or returning no error.
func (a *Activities) charge(ctx context.Context) error { return nil }
func (a *Activities) Name() string                     { return "billing" }

// SendReceipt is registered as a function, with options.
func SendReceipt(ctx context.Context, email string) error { // want `workflow activity \(Temporal\): attempts=unbounded wait=backoff deadline=unknown` SendReceipt:`run again by Temporal as a workflow activity`
	return nil
}

// Heartbeat is registered in another package: it is seen here because it uses its
// context as only an activity can.
func Heartbeat(ctx context.Context, total int) error { // want `workflow activity \(Temporal\): attempts=unbounded wait=backoff deadline=unknown` Heartbeat:`run again by Temporal as a workflow activity`
	for i := range total {
		activity.RecordHeartbeat(ctx, i)
	}
	return nil
}

// Not an activity: a helper that only receives a context.
func lookup(ctx context.Context, id string) error { return nil }

// Not an activity: a helper of activities that uses their context but returns no error.
func loggerFor(ctx context.Context, name string) interface{ Info(string, ...interface{}) } {
	return activity.GetLogger(ctx)
}

// Payments is implemented elsewhere: registering its method value says nothing of the code.
type Payments interface {
	Capture(ctx context.Context, id string) error
}

// Once is run with MaximumAttempts 1: no retries, no scope.
func Once(ctx context.Context) error { return lookup(ctx, "x") }

func Run(c client.Client) error {
	w := worker.New(c, "billing", worker.Options{})
	w.RegisterActivity(&Activities{BillingURL: "https://billing.example.com", HTTP: &http.Client{Timeout: 10 * time.Second}})
	w.RegisterActivityWithOptions(SendReceipt, activity.RegisterOptions{Name: "send-receipt"})
	w.RegisterActivity(Once)
	var p Payments
	w.RegisterActivity(p.Capture)
	return w.Run(worker.InterruptCh())
}

var a *Activities

func OrderWorkflow(ctx workflow.Context, in *ChargeInput) error {
	charged := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    10 * time.Second,
		ScheduleToCloseTimeout: time.Minute,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
	})
	var status string
	if err := workflow.ExecuteActivity(charged, a.Charge, in).Get(ctx, &status); err != nil {
		return fmt.Errorf("charge: %w", err)
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second})
	if err := workflow.ExecuteActivity(ctx, a.Reserve, "o-1").Get(ctx, nil); err != nil {
		return err
	}
	once := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	return workflow.ExecuteActivity(once, Once).Get(ctx, nil)
}
