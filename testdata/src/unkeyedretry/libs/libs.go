// Package libs holds non-idempotent requests retried through retry libraries' callbacks.
package libs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff "github.com/cenkalti/backoff/v5"
	"github.com/google/uuid"
	"github.com/idemlint/idemlint/runtime/retry"
	goretry "github.com/sethvargo/go-retry"
)

type Client struct {
	http *http.Client
	base string
}

type Order struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

type Receipt struct {
	ID string `json:"id"`
}

type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("status %d", e.Code) }

// post makes the request for one attempt: every attempt gets its own request id for tracing.
func (c *Client) encode(o Order) (*bytes.Reader, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("encode order: %w", err)
	}
	return bytes.NewReader(b), nil
}

// ---- Reported ----

func (c *Client) PlaceOrder(ctx context.Context, o Order) error {
	return retrygo.Do(func() error {
		body, err := c.encode(o)
		if err != nil {
			return retrygo.Unrecoverable(err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", body) // related "libs.go:55: retry callback" "libs.go:66: sent here" // want `POST /v1/orders is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return retrygo.Unrecoverable(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Request-ID", uuid.NewString())
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return &StatusError{resp.StatusCode}
		}
		return nil
	}, retrygo.Attempts(4), retrygo.Context(ctx))
}

func (c *Client) PlaceOrderData(ctx context.Context, o Order) (*Receipt, error) {
	return retrygo.DoWithData(func() (*Receipt, error) {
		body, err := c.encode(o)
		if err != nil {
			return nil, retrygo.Unrecoverable(err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v2/orders", body) // related "libs.go:79: retry callback" "libs.go:88: sent here" // want `POST /v2/orders is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return nil, retrygo.Unrecoverable(err)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		var r Receipt
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			return nil, retrygo.Unrecoverable(err)
		}
		return &r, nil
	}, retrygo.Attempts(3))
}

func (c *Client) Refund(ctx context.Context, payment string) error {
	op := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/refunds?payment="+payment, nil) // related "libs.go:121: retry callback" "libs.go:107: sent here" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return backoff4.Permanent(err)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			log.Printf("capture %s: %v", payment, err)
			return err
		}
		defer resp.Body.Close()
		switch {
		case resp.StatusCode >= 500:
			return &StatusError{resp.StatusCode}
		case resp.StatusCode >= 400:
			return backoff4.Permanent(&StatusError{resp.StatusCode})
		}
		return nil
	}
	return backoff4.Retry(op, backoff4.WithContext(backoff4.WithMaxRetries(backoff4.NewExponentialBackOff(), 3), ctx))
}

func (c *Client) Invoice(ctx context.Context, customer string) (*Receipt, error) {
	return backoff.Retry(ctx, func() (*Receipt, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/invoices", bytes.NewBufferString(customer)) // related "libs.go:125: retry callback" "libs.go:130: sent here" // want `POST /v1/invoices is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return nil, backoff.Permanent(err)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			return nil, &StatusError{resp.StatusCode}
		}
		return &Receipt{}, nil
	}, backoff.WithMaxTries(4))
}

func (c *Client) Enroll(ctx context.Context, user string) error {
	b := goretry.WithMaxRetries(3, goretry.WithFullJitter(goretry.NewExponential(100*time.Millisecond)))
	return goretry.Do(ctx, b, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/enrollments", bytes.NewBufferString(user)) // related "libs.go:144: retry callback" "libs.go:149: sent here" // want `POST /v1/enrollments is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return goretry.RetryableError(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return goretry.RetryableError(&StatusError{resp.StatusCode})
		}
		return nil
	})
}

// Ship overrides the runtime's classifier with one that retries every transient error.
func (c *Client) Ship(ctx context.Context, order string) error {
	p := retry.Policy{MaxAttempts: 4, Classify: retry.IsTransient}
	return retry.Do(ctx, p, func(ctx context.Context, a retry.Attempt) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/shipments", bytes.NewBufferString(order)) // related "libs.go:164: retry callback" "libs.go:169: sent here" // want `POST /v1/shipments is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return retry.Permanent(err)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// The "identifier" in the path is new on every attempt: nothing the server could apply once.
func (c *Client) Submit(ctx context.Context, form string) error {
	return retrygo.Do(func() error {
		resp, err := c.http.Post(c.base+"/v1/forms/"+strconv.FormatInt(time.Now().UnixNano(), 10)+"/submit", "text/plain", bytes.NewBufferString(form)) // related "libs.go:179: retry callback" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

// A charge created under the customer it names: a collection, created again on a retry.
func (c *Client) ChargeCustomer(ctx context.Context, customer string, amount int64) error {
	return retrygo.Do(func() error {
		resp, err := c.http.Post(c.base+"/v1/customers/"+customer+"/charges", "application/json", bytes.NewBufferString(strconv.FormatInt(amount, 10))) // related "libs.go:190: retry callback" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

// A comment posted under an issue: a collection under identified resources.
func (c *Client) Comment(ctx context.Context, owner, repo string, issue int, text string) error {
	return retrygo.Do(func() error {
		resp, err := c.http.Post(fmt.Sprintf("%s/repos/%s/%s/issues/%d/comments", c.base, owner, repo, issue), "text/plain", bytes.NewBufferString(text)) // related "libs.go:201: retry callback" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

// A generic helper's endpoint: "/api/" is no collection.
func (c *Client) Call(ctx context.Context, endpoint, payload string) error {
	return retrygo.Do(func() error {
		resp, err := c.http.Post(c.base+"/api/"+endpoint, "application/json", bytes.NewBufferString(payload)) // related "libs.go:212: retry callback" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

// The input has a key field, but only two other fields are sent.
type RefundInput struct {
	Payment        string `json:"payment"`
	Amount         int64  `json:"amount"`
	IdempotencyKey string `json:"idempotencyKey"`
}

func (c *Client) RefundInput(ctx context.Context, in *RefundInput) error {
	return retrygo.Do(func() error {
		resp, err := c.http.Post(c.base+"/v1/refunds?payment="+in.Payment, "text/plain", bytes.NewBufferString(strconv.FormatInt(in.Amount, 10))) // related "libs.go:229: retry callback" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

// ---- Not reported ----

// The order's identifier is made once, before the retries: the same on every attempt.
func (c *Client) SubmitOrder(ctx context.Context, payload string) error {
	id := uuid.NewString()
	return retrygo.Do(func() error {
		resp, err := c.http.Post(c.base+"/v1/orders/"+id+"/submit", "application/json", bytes.NewBufferString(payload))
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

func dialFailed(err error) bool {
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// PlaceOrderDial retries only failed dials.
func (c *Client) PlaceOrderDial(ctx context.Context, o Order) error {
	return retrygo.Do(func() error {
		body, err := c.encode(o)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", body)
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(4), retrygo.RetryIf(dialFailed))
}

// Capture acts on the payment it names: capturing it twice does not capture twice.
func (c *Client) Capture(ctx context.Context, payment string) error {
	return backoff4.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/payments/"+payment+"/capture", nil)
		if err != nil {
			return backoff4.Permanent(err)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return &StatusError{resp.StatusCode}
		}
		return nil
	}, backoff4.WithContext(backoff4.WithMaxRetries(backoff4.NewExponentialBackOff(), 3), ctx))
}

// SetStatus names the order and the status in a formatted path.
func (c *Client) SetStatus(ctx context.Context, order, status string) error {
	return retrygo.Do(func() error {
		resp, err := c.http.Post(fmt.Sprintf("%s/v1/orders/%s/status", c.base, order), "application/json", bytes.NewBufferString(status))
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

// CapturePermanent marks every failure but a refused connection permanent.
func (c *Client) CapturePermanent(ctx context.Context, payment string) error {
	return backoff4.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/captures", bytes.NewBufferString(payment))
		if err != nil {
			return backoff4.Permanent(err)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				return err
			}
			return backoff4.Permanent(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 400 {
			return backoff4.Permanent(&StatusError{resp.StatusCode})
		}
		return nil
	}, backoff4.WithMaxRetries(backoff4.NewExponentialBackOff(), 3))
}

// EnrollDial marks only DNS failures retryable.
func (c *Client) EnrollDial(ctx context.Context, user string) error {
	return goretry.Do(ctx, goretry.WithMaxRetries(3, goretry.NewExponential(time.Second)), func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/enrollments", bytes.NewBufferString(user))
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			var dnsErr *net.DNSError
			if errors.As(err, &dnsErr) {
				return goretry.RetryableError(err)
			}
			return err
		}
		return resp.Body.Close()
	})
}

// ShipDefault relies on the runtime's classifier, which repeats a sent POST only when keyed.
func (c *Client) ShipDefault(ctx context.Context, order string) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 4}, func(ctx context.Context, a retry.Attempt) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/shipments", bytes.NewBufferString(order))
		if err != nil {
			return retry.Permanent(err)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Upsert is declared idempotent by its author: the server upserts by the order id.
func (c *Client) Upsert(ctx context.Context, order string) error {
	return retry.Do(ctx, retry.Policy{Idempotent: true}, func(ctx context.Context, a retry.Attempt) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders:upsert", bytes.NewBufferString(order))
		if err != nil {
			return retry.Permanent(err)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// ShipRetryable names the runtime's default classifier explicitly.
func (c *Client) ShipRetryable(ctx context.Context, order string) error {
	return retry.Do(ctx, retry.Policy{Classify: retry.IsRetryable}, func(ctx context.Context, a retry.Attempt) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/shipments", bytes.NewBufferString(order))
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
