// Package clients holds non-idempotent requests sent through clients that retry on their own.
package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"syscall"
	"time"

	restyv2 "github.com/go-resty/resty/v2"
	retryablehttp "github.com/hashicorp/go-retryablehttp"
	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retryhttp"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
	restyv3 "resty.dev/v3"
)

type Payment struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

func newRetryable() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 4
	c.RetryWaitMin = 200 * time.Millisecond
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c
}

// ---- Reported ----

// Pay sends a POST through go-retryablehttp, which retries it on 5xx and on connection errors.
func Pay(ctx context.Context, base string, p Payment) error {
	client := newRetryable()
	body, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode payment: %w", err)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/payments", body) // related "clients.go:51: self-retrying client call" "clients.go:51: sent here" // want `POST /v1/payments is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("pay: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("pay: status %d", resp.StatusCode)
	}
	return nil
}

// PayShort uses retryablehttp's Client.Post.
func PayShort(base string, body []byte) error {
	client := newRetryable()
	resp, err := client.Post(base+"/v1/payments", "application/json", body) // related "clients.go:65: self-retrying client call" // want `POST /v1/payments is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Standard sends through an *http.Client made by retryablehttp.
func Standard(ctx context.Context, base string, body []byte) error {
	std := newRetryable().StandardClient()
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, base+"/v1/accounts/limits", bytes.NewReader(body)) // related "clients.go:79: self-retrying client call" "clients.go:79: sent here" // want `PATCH /v1/accounts/limits is retried with no idempotency key; send one made before the retries`
	if err != nil {
		return err
	}
	resp, err := std.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var rc = restyv2.New().SetRetryCount(3).SetRetryWaitTime(500 * time.Millisecond).SetTimeout(10 * time.Second)

// Book sends a POST through resty v2 with a retry count: v2 retries every method.
func Book(ctx context.Context, slot string) error {
	resp, err := rc.R(). // related "clients.go:90: self-retrying client call" // want `POST /v1/bookings is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
				SetContext(ctx).
				SetHeader("Content-Type", "application/json").
				SetBody(map[string]string{"slot": slot}).
				Post("/v1/bookings")
	if err != nil {
		return fmt.Errorf("book %s: %w", slot, err)
	}
	if resp.IsError() {
		return fmt.Errorf("book %s: status %d", slot, resp.StatusCode())
	}
	return nil
}

// Reschedule sends a PATCH through resty v3 told to retry non-idempotent methods.
func Reschedule(ctx context.Context, booking, slot string) error {
	c := restyv3.New().SetRetryCount(2).SetRetryAllowNonIdempotent(true)
	resp, err := c.R().SetContext(ctx).SetBody(slot).Patch("/v1/bookings/" + booking) // related "clients.go:107: self-retrying client call" // want `a PATCH request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return err
	}
	log.Printf("reschedule %s: %d", booking, resp.StatusCode())
	return nil
}

// PayLoop retries around a client that keys its own attempts: each call makes a new key.
func PayLoop(ctx context.Context, base string, body []byte) error {
	client := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &retryhttp.Transport{Policy: retry.Policy{MaxAttempts: 3}, IdempotencyKeys: true},
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/payments", bytes.NewReader(body)) // related "clients.go:121: retry loop" "clients.go:126: sent here" // want `POST /v1/payments is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("pay: giving up")
}

// ---- Not reported ----

// PayKeyed sets the key once on the request that retryablehttp sends again.
func PayKeyed(ctx context.Context, base, key string, body []byte) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/payments", body)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := newRetryable().Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func refused(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil && errors.Is(err, syscall.ECONNREFUSED) {
		return true, nil
	}
	return false, err
}

// PayDial tells retryablehttp to retry refused connections only.
func PayDial(ctx context.Context, base string, body []byte) error {
	client := retryablehttp.NewClient()
	client.CheckRetry = refused
	resp, err := client.Post(base+"/v1/payments", "application/json", body)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// BookOnce uses a resty client without a retry count.
func BookOnce(slot string) error { // want BookOnce:"sends POST /v1/bookings without an idempotency key"
	_, err := restyv2.New().R().SetBody(slot).Post("/v1/bookings")
	return err
}

// BookKeyed sets the key on the resty request.
func BookKeyed(slot, key string) error {
	_, err := rc.R().SetHeader("Idempotency-Key", key).SetBody(slot).Post("/v1/bookings")
	return err
}

// RescheduleV3 uses resty v3, which does not retry PATCH by default.
func RescheduleV3(ctx context.Context, booking, slot string) error {
	_, err := restyv3.New().SetRetryCount(3).R().SetContext(ctx).SetBody(slot).Patch("/v1/bookings/" + booking)
	return err
}

// PayTransport sends through the runtime's transport, which keys POSTs itself.
func PayTransport(ctx context.Context, base string, body []byte) error {
	client := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &retryhttp.Transport{Policy: retry.Policy{MaxAttempts: 3}, IdempotencyKeys: true},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/payments", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Intent goes through stripe-go, which adds a key to the POSTs it retries.
func Intent(amount int64) (*stripe.PaymentIntent, error) {
	return paymentintent.New(&stripe.PaymentIntentParams{Amount: stripe.Int64(amount), Currency: stripe.String("eur")})
}
