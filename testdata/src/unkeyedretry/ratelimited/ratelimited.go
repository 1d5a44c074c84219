// Package ratelimited is a billing SDK over resty whose request helper runs a request
// function again only when the server answers 429 (rate limited: the request was turned away,
// not processed), waiting as the server says; its creates are not repeated. A second helper
// also goes round on 5xx: its creates are.
package ratelimited

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/go-resty/resty/v2"
)

type Client struct {
	http        *resty.Client
	maxAttempts int
	onLimit     func(remaining int)
}

func New(apiKey string) *Client {
	return &Client{http: resty.New().SetTimeout(30 * time.Second), maxAttempts: 4}
}

type Invoice struct {
	ID       string `json:"id"`
	Customer string `json:"customer"`
	Amount   int64  `json:"amount"`
}

type APIError struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

func (e *APIError) Error() string { return fmt.Sprintf("billing: %d %s", e.Status, e.Message) }

func (c *Client) waitFor(attempt int) time.Duration {
	return time.Duration(1<<attempt) * time.Second
}

// withRateLimit runs send again on 429 only.
func (c *Client) withRateLimit(ctx context.Context, send func() (*resty.Response, error)) (*resty.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := send()
		if err != nil {
			return resp, err
		}
		if resp.StatusCode() != 429 {
			if c.onLimit != nil {
				c.onLimit(attempt)
			}
			return resp, nil
		}
		if attempt >= c.maxAttempts-1 {
			return resp, nil
		}
		t := time.NewTimer(c.waitFor(attempt))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return resp, ctx.Err()
		}
	}
}

// withRetries runs send again on 429 and on 5xx: a 5xx may come after the create was made.
func (c *Client) withRetries(ctx context.Context, send func() (*resty.Response, error)) (*resty.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := send()
		if err != nil {
			return resp, err
		}
		if code := resp.StatusCode(); code != 429 && code < 500 {
			return resp, nil
		}
		if attempt >= c.maxAttempts-1 {
			return resp, errors.New("billing: out of attempts, last status " + strconv.Itoa(resp.StatusCode()))
		}
		t := time.NewTimer(c.waitFor(attempt))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return resp, ctx.Err()
		}
	}
}

func (c *Client) CreateInvoice(ctx context.Context, inv Invoice) (*Invoice, error) {
	var out Invoice
	resp, err := c.withRateLimit(ctx, func() (*resty.Response, error) {
		return c.http.R().
			SetContext(ctx).
			SetHeader("Content-Type", "application/json").
			SetBody(inv).
			Post("/v1/invoices")
	})
	if err != nil {
		return nil, fmt.Errorf("create invoice: %w", err)
	}
	if resp.IsError() {
		return nil, &APIError{Status: resp.StatusCode(), Message: "create invoice"}
	}
	return &out, nil
}

type CreditNote struct {
	Invoice string `json:"invoice"`
	Amount  int64  `json:"amount"`
}

func (c *Client) CreateCreditNote(ctx context.Context, note CreditNote) error {
	resp, err := c.withRetries(ctx, func() (*resty.Response, error) {
		return c.http.R(). // related "ratelimited.go:117: retry callback" // want `POST /v1/credit_notes is retried without an idempotency key, so a retry can repeat it`
			SetContext(ctx).
			SetHeader("Content-Type", "application/json").
			SetBody(note).
			Post("/v1/credit_notes")
	})
	if err != nil {
		return fmt.Errorf("create credit note: %w", err)
	}
	if resp.IsError() {
		return &APIError{Status: resp.StatusCode(), Message: "create credit note"}
	}
	return nil
}
