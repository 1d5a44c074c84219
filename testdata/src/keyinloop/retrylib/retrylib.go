// Package retrylib is an in-house retry helper and a client whose method mints keys.
package retrylib

import (
	"context"
	"errors"
	"math/rand/v2"
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

// Policy configures Retry.
type Policy struct {
	Attempts int
	Base     time.Duration
}

// ErrPermanent stops Retry.
var ErrPermanent = errors.New("permanent")

// Retry calls op until it succeeds, returns ErrPermanent or the attempts run out; it waits
// with full jitter between attempts and stops when ctx is done.
func Retry(ctx context.Context, p Policy, op func(ctx context.Context, attempt int) error) error {
	var err error
	for attempt := 1; attempt <= p.Attempts; attempt++ {
		err = op(ctx, attempt)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, ErrPermanent):
			return err
		}
		d := time.Duration(rand.Int64N(int64(p.Base << attempt)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return err
}
