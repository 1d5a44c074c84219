// Package hookworker delivers webhooks from queued tasks, which asynq runs again when they
// fail: a delivery that hands the dispatcher its stored key, or a stable checksum, for the
// parameter the dispatcher names as the key, sends the same key on every run.
package hookworker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/hibiken/asynq"

	"unkeyedretry/hookdispatch"
)

type Delivery struct {
	ID             string          `json:"id"`
	Endpoint       string          `json:"endpoint"`
	Payload        json.RawMessage `json:"payload"`
	Signature      string          `json:"signature"`
	IdempotencyKey string          `json:"idempotency_key"`
}

type Worker struct {
	d   *hookdispatch.Dispatcher
	log *slog.Logger
}

func decode(t *asynq.Task) (Delivery, error) {
	var d Delivery
	err := json.Unmarshal(t.Payload(), &d)
	return d, err
}

func checksum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// ---- Not reported ----

func (w *Worker) ProcessDelivery(ctx context.Context, t *asynq.Task) error {
	d, err := decode(t)
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	status, err := w.d.SendWebhook(ctx, d.Endpoint, d.Payload, d.Signature, "X-Hook-Idempotency-Key", d.IdempotencyKey)
	if err != nil {
		return err
	}
	if status >= 500 {
		return fmt.Errorf("endpoint answered %d", status)
	}
	w.log.Info("delivered", "id", d.ID, "status", status)
	return nil
}

func (w *Worker) ProcessMetaEvent(ctx context.Context, t *asynq.Task) error {
	d, err := decode(t)
	if err != nil {
		return err
	}
	_, err = w.d.SendWebhook(ctx, d.Endpoint, d.Payload, d.Signature, "X-Hook-Idempotency-Key", checksum(d.ID))
	return err
}

// ---- Reported: no key handed over ----

func (w *Worker) ProcessPing(ctx context.Context, t *asynq.Task) error {
	d, err := decode(t)
	if err != nil {
		return err
	}
	_, err = w.d.SendWebhook(ctx, d.Endpoint, d.Payload, d.Signature, "", "") // related "hookworker.go:72: message handler" // want `a POST request is sent without an idempotency key, so asynq's retries can repeat it; derive one from the task ID`
	return err
}

func Register(mux *asynq.ServeMux, w *Worker) {
	mux.HandleFunc("webhook:deliver", w.ProcessDelivery)
	mux.HandleFunc("webhook:meta", w.ProcessMetaEvent)
	mux.HandleFunc("webhook:ping", w.ProcessPing)
}
