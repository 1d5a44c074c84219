// Package crosspkg uses retrylib: helpers, generators, sinks and minting functions from
// another package, known through facts.
package crosspkg

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"

	"github.com/google/uuid"

	"keyinloop/retrylib"
)

type order struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
}

// submit posts an order with the retry helper of another package; the key is made after the
// body is encoded and the request built, each with its error check.
func submit(ctx context.Context, hc *http.Client, o order) error {
	return retrylib.Retry(ctx, retrylib.Policy{Attempts: 4}, func(ctx context.Context, attempt int) error {
		body, err := json.Marshal(o)
		if err != nil {
			return fmt.Errorf("%w: %v", retrylib.ErrPermanent, err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://orders.example.com/v1/orders", bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("%w: %v", retrylib.ErrPermanent, err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "crosspkg.go:26: retry callback" "crosspkg.go:36: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of retrylib\.Retry: retries cannot be deduplicated; move it out`
		resp, err := hc.Do(req)
		if err != nil {
			log.Printf("order %s: attempt %d: %v", o.ID, attempt, err)
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("order %s: status %d", o.ID, resp.StatusCode)
		}
		return nil
	})
}

// The same with the key made before the helper call.
func submitKeyed(ctx context.Context, hc *http.Client, o order) error {
	key := uuid.NewString()
	return retrylib.Retry(ctx, retrylib.Policy{Attempts: 4}, func(ctx context.Context, attempt int) error {
		body, err := json.Marshal(o)
		if err != nil {
			return fmt.Errorf("%w: %v", retrylib.ErrPermanent, err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://orders.example.com/v1/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// ---- Reported ----

func inferredHelper(ctx context.Context, c *retrylib.Client) error {
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		key := retrylib.NewKey() // related "crosspkg.go:74: retry callback" "crosspkg.go:76: sent as header \"Idempotency-Key\" via ChargeKeyed" // want `retrylib\.NewKey makes a new idempotency key per attempt of retrylib\.Do: retries cannot be deduplicated; move it out`
		return c.ChargeKeyed(ctx, key, 100)
	})
}

func mintingMethod(ctx context.Context, c *retrylib.Client) error {
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		return c.Charge(ctx, 100) // related "crosspkg.go:81: retry callback" "crosspkg.go:81: key made by uuid.NewString at retrylib.go:34" // want `Client\.Charge makes a new idempotency key per call: each attempt of retrylib\.Do sends a different one`
	})
}

// ---- Not reported ----

func keyedOutside(ctx context.Context, c *retrylib.Client) error {
	key := retrylib.NewKey()
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		return c.ChargeKeyed(ctx, key, 100)
	})
}

// ChargeOrKey only makes a key when given none: not a minting function.
func fillsMissing(ctx context.Context, c *retrylib.Client, key string) error {
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		return c.ChargeOrKey(ctx, key, 100)
	})
}

// Charge called once, not retried.
func once(ctx context.Context, c *retrylib.Client) error {
	return c.Charge(ctx, 100)
}
