// Package retrylib is an in-house retry helper and a client whose method mints keys.
package retrylib

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
)

// Do retries fn up to n times.
func Do(ctx context.Context, n int, fn func(context.Context) error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// NewKey returns a fresh key.
func NewKey() string { return uuid.NewString() }

type Client struct{ HTTP *http.Client }

// Charge makes a new key on every call.
func (c *Client) Charge(ctx context.Context, amount int64) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.example.com/charges", nil)
	req.Header.Set("Idempotency-Key", uuid.NewString())
	_, err := c.HTTP.Do(req)
	return err
}

// ChargeKeyed sends the key it is given.
func (c *Client) ChargeKeyed(ctx context.Context, key string, amount int64) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.example.com/charges", nil)
	req.Header.Set("Idempotency-Key", key)
	_, err := c.HTTP.Do(req)
	return err
}

// ChargeOrKey makes a key only when none is given.
func (c *Client) ChargeOrKey(ctx context.Context, key string, amount int64) error {
	if key == "" {
		key = uuid.NewString()
	}
	return c.ChargeKeyed(ctx, key, amount)
}
