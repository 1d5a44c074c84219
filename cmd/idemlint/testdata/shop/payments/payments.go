// Package payments charges cards through a provider's HTTP API.
package payments

import (
	"context"
	"crypto/rand"
	"net/http"
	"time"

	"example.com/shop/retrylib"
)

var client = &http.Client{Timeout: 10 * time.Second}

// Charge retries the provider call, but makes a new key on every attempt.
func Charge(ctx context.Context, url string) error {
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		key := rand.Text()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Refund makes its key once, before retrying: correct.
func Refund(ctx context.Context, url string) error {
	key := rand.Text()
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
