// Package frameworks sends POSTs from functions that a framework runs again when they fail:
// a Temporal activity, a Pub/Sub handler, a Kubernetes reconciler.
package frameworks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"

	"cloud.google.com/go/pubsub/v2"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	ctrl "sigs.k8s.io/controller-runtime/pkg/reconcile"
)

var client = &http.Client{Timeout: 15 * time.Second}

type Charge struct {
	Customer string `json:"customer"`
	Amount   int64  `json:"amount"`
}

type Activities struct{ BaseURL string }

// ---- Reported ----

// Temporal runs the activity again after a failure or a timeout: the charge is sent again
// with nothing the server could deduplicate it by.
func (a *Activities) ChargeCard(ctx context.Context, in Charge) (string, error) {
	logger := activity.GetLogger(ctx)
	body, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.BaseURL+"/v1/charges", bytes.NewReader(body)) // related "frameworks.go:33: workflow activity" "frameworks.go:45: sent here" // want `POST /v1/charges has no idempotency key, so retries can repeat it; derive one from the workflow and activity IDs`
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		logger.Warn("charge failed", "customer", in.Customer, "error", err)
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return "", fmt.Errorf("payments: %s", resp.Status)
	}
	var out struct{ ID string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// An input type with a key field, built here without it: nothing is keyed.
func (a *Activities) InvoiceCustomer(ctx context.Context, customer string) error {
	body, err := json.Marshal(&InvoiceInput{Customer: customer, Reference: "manual"})
	if err != nil {
		return err
	}
	resp, err := client.Post(a.BaseURL+"/v1/invoices", "application/json", bytes.NewReader(body)) // related "frameworks.go:62: workflow activity" // want `POST /v1/invoices has no idempotency key, so retries can repeat it; derive one from the workflow and activity IDs`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A Pub/Sub message that is nacked is delivered again.
func receive(ctx context.Context, c *pubsub.Client, url string) error {
	return c.Subscriber("ledger").Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		resp, err := client.Post(url+"/v1/entries", "application/json", bytes.NewReader(m.Data)) // related "frameworks.go:76: message handler" // want `POST /v1/entries is sent without an idempotency key, so Pub/Sub's retries can repeat it; derive one from the message ID`
		if err != nil {
			log.Printf("message %s: %v", m.ID, err)
			m.Nack()
			return
		}
		resp.Body.Close()
		m.Ack()
	})
}

// ---- Not reported ----

// The key comes from the workflow and activity IDs, the same on every attempt.
func (a *Activities) Refund(ctx context.Context, chargeID string) error {
	info := activity.GetInfo(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.BaseURL+"/v1/refunds?charge="+chargeID, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", info.WorkflowExecution.ID+"/"+info.ActivityID)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A GET repeats nothing.
func (a *Activities) Balance(ctx context.Context, customer string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.BaseURL+"/v1/balance/"+customer, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct{ Amount int64 }
	return out.Amount, json.NewDecoder(resp.Body).Decode(&out)
}

// A reconciler runs again on every change and resync, successes included: it avoids repeating
// a create by looking at the state it observes, which the client cannot see.
type Reconciler struct{ URL string }

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	resp, err := client.Post(r.URL+"/v1/buckets", "application/json", bytes.NewReader([]byte(req.Name)))
	if err != nil {
		return ctrl.Result{}, err
	}
	resp.Body.Close()
	return ctrl.Result{}, nil
}

// The workflow makes the key once and hands it in with the input: the body carries it.
type InvoiceInput struct {
	Customer       string `json:"customerId"`
	Reference      string `json:"orderReference"`
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
}

func (a *Activities) Invoice(ctx context.Context, in *InvoiceInput) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("unable to encode input: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.BaseURL+"/v1/invoices", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("unable to build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return fmt.Errorf("invoice: %s", resp.Status)
	}
	return nil
}

func register(w worker.Worker, a *Activities) {
	w.RegisterActivity(a)
}
