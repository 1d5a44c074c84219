// Package temporal is a Temporal worker whose activities call a payments API. An activity is
// retried by the server, so a key made inside it is new on every attempt; the fix derives it
// from the workflow and activity IDs, which stay the same.
package temporal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	idemretry "github.com/idemlint/idemlint/runtime/retry"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

type ChargeInput struct {
	CustomerID     string `json:"customer_id"`
	Amount         int64  `json:"amount"`
	IdempotencyKey string `json:"-"`
}

type chargeRequest struct {
	Customer       string `json:"customer"`
	Amount         int64  `json:"amount"`
	IdempotencyKey string `json:"idempotency_key"`
}

type Activities struct {
	PaymentsURL string
	HTTP        *http.Client
}

func (a *Activities) post(ctx context.Context, path string, body []byte, key string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.PaymentsURL+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	return a.HTTP.Do(req)
}

// ChargeCard makes its key inside the activity.
func (a *Activities) ChargeCard(ctx context.Context, in ChargeInput) (string, error) {
	logger := activity.GetLogger(ctx)
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	body, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	resp, err := a.post(ctx, "/v1/charges", body, uuid.NewString()) // related "temporal.go:50: workflow activity" "temporal.go:145: run again by Temporal" "temporal.go:58: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run; derive it from the workflow and activity IDs`
	if err != nil {
		logger.Warn("charge failed", "customer", in.CustomerID, "error", err)
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return "", fmt.Errorf("payments: %s", resp.Status)
	}
	return resp.Status, nil
}

// Refund builds a request with the key in its body, from uuid.New().String(), and retries
// the call itself: the activity's retries still make new keys.
func (a *Activities) Refund(ctx context.Context, chargeID string, amount int64) error {
	for attempt := 0; attempt < 3; attempt++ {
		body, err := json.Marshal(chargeRequest{Customer: chargeID, Amount: amount, IdempotencyKey: uuid.New().String()}) // related "temporal.go:72: workflow activity" "temporal.go:145: run again by Temporal" "temporal.go:74: sent as field IdempotencyKey" // want `uuid\.New makes a new idempotency key per run; derive it from the workflow and activity IDs`
		if err != nil {
			return err
		}
		resp, err := a.HTTP.Post(a.PaymentsURL+"/v1/refunds", "application/json", bytes.NewReader(body))
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("refund %s failed", chargeID)
}

// Payout makes two keys: each gets its own purpose.
func (a *Activities) Payout(ctx context.Context, account string, amount int64) error {
	if _, err := a.post(ctx, "/v1/transfers", nil, uuid.NewString()); err != nil { // related "temporal.go:89: workflow activity" "temporal.go:145: run again by Temporal" "temporal.go:90: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run; derive it from the workflow and activity IDs`
		return err
	}
	_, err := a.post(ctx, "/v1/payouts", nil, uuid.NewString()) // related "temporal.go:89: workflow activity" "temporal.go:145: run again by Temporal" "temporal.go:93: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run; derive it from the workflow and activity IDs`
	return err
}

// Capture retries the call itself, in a callback whose context hides the activity's: the
// fix would need the activity's own, so there is none; the message says what to use.
func (a *Activities) Capture(ctx context.Context, chargeID string) error {
	return idemretry.Do(ctx, idemretry.Policy{MaxAttempts: 3}, func(ctx context.Context, at idemretry.Attempt) error {
		_, err := a.post(ctx, "/v1/captures/"+chargeID, nil, uuid.NewString()) // related "temporal.go:99: workflow activity" "temporal.go:145: run again by Temporal" "temporal.go:101: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run; derive it from the workflow and activity IDs`
		return err
	})
}

// Void replaces its context: no fix.
func (a *Activities) Void(ctx context.Context, chargeID string) error {
	ctx = context.Background()
	_, err := a.post(ctx, "/v1/voids/"+chargeID, nil, uuid.NewString()) // related "temporal.go:107: workflow activity" "temporal.go:145: run again by Temporal" "temporal.go:109: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run; derive it from the workflow and activity IDs`
	return err
}

// ---- Not reported ----

// The key comes from the workflow, which made it once (workflow.SideEffect).
func (a *Activities) ChargeKeyed(ctx context.Context, in ChargeInput) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	_, err = a.post(ctx, "/v1/charges", body, in.IdempotencyKey)
	return err
}

// The key is derived from the activity's info.
func (a *Activities) ChargeDerived(ctx context.Context, in ChargeInput) error {
	info := activity.GetInfo(ctx)
	_, err := a.post(ctx, "/v1/charges", nil, info.WorkflowExecution.ID+"/"+info.ActivityID)
	return err
}

// An activity that only makes a key for its workflow, which records the result once.
func (a *Activities) NewChargeRequest(ctx context.Context, in ChargeInput) (*chargeRequest, error) {
	return &chargeRequest{Customer: in.CustomerID, Amount: in.Amount, IdempotencyKey: uuid.NewString()}, nil
}

// A value that is no key.
func (a *Activities) Trace(ctx context.Context) error {
	activity.GetLogger(ctx).Info("trace", "id", uuid.NewString())
	return nil
}

func Run(c client.Client) error {
	w := worker.New(c, "payments", worker.Options{})
	w.RegisterActivity(&Activities{PaymentsURL: "https://payments.example.com", HTTP: &http.Client{Timeout: 10 * time.Second}})
	return w.Run(worker.InterruptCh())
}

var acts *Activities

func ChargeWorkflow(ctx workflow.Context, in ChargeInput) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second})
	var key string
	if err := workflow.SideEffect(ctx, func(workflow.Context) interface{} { return uuid.NewString() }).Get(&key); err != nil {
		return err
	}
	in.IdempotencyKey = key
	return workflow.ExecuteActivity(ctx, acts.ChargeKeyed, in).Get(ctx, nil)
}
