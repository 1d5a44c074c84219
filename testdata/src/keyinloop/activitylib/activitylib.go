// Package activitylib defines activities that another package registers with a worker.
package activitylib

import (
	"context"
	"net/http"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
)

type Shipping struct{ HTTP *http.Client }

// Book makes a new key on every call; nothing here says it is an activity, so it is reported
// where the worker registers it.
func (s *Shipping) Book(ctx context.Context, orderID string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://shipping.example.com/v1/bookings?order="+orderID, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Cancel uses its context as only an activity can: it is reported here, and not again where
// it is registered.
func (s *Shipping) Cancel(ctx context.Context, bookingID string) error {
	activity.GetLogger(ctx).Info("cancelling", "booking", bookingID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://shipping.example.com/v1/cancellations?booking="+bookingID, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString()) // related "activitylib.go:31: workflow activity" "activitylib.go:37: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per run; derive it from the workflow and activity IDs`
	_, err = s.HTTP.Do(req)
	return err
}

// Track sends no key.
func (s *Shipping) Track(ctx context.Context, bookingID string) error { return nil }

// Label makes a key; a function registered by itself.
func Label(ctx context.Context, orderID string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://labels.example.com/v1/labels", nil)
	req.Header.Set("Idempotency-Key", uuid.NewString())
	_, err := http.DefaultClient.Do(req)
	return err
}
