package attempts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	gofrs "github.com/gofrs/uuid/v5"
	"github.com/google/uuid"
	gax "github.com/googleapis/gax-go/v2"
	idemretry "github.com/idemlint/idemlint/runtime/retry"
	"github.com/oklog/ulid/v2"
	"github.com/segmentio/ksuid"
	sethretry "github.com/sethvargo/go-retry"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

// post sends one attempt of a charge: the shape every callback below repeats inline.
func (c *Client) newChargeRequest(ctx context.Context, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/charges", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build charge request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// ---- Reported: the key is made inside the retried function, after error checks ----

func (c *Client) ChargeRetryGo(ctx context.Context, body []byte) (*Charge, error) {
	var ch Charge
	err := retrygo.Do(func() error {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return retrygo.Unrecoverable(err)
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "libs.go:46: retry callback" "libs.go:51: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of retry\.Do: retries cannot be deduplicated; move it out`
		req.Header.Set("X-Client", "shop")
		resp, err := c.http.Do(req)
		if err != nil {
			log.Printf("charge: %v", err)
			return err
		}
		defer resp.Body.Close()
		if err := classify(resp); err != nil {
			if !errors.Is(err, errRetryable) {
				return retrygo.Unrecoverable(err)
			}
			return err
		}
		return json.NewDecoder(resp.Body).Decode(&ch)
	}, retrygo.Attempts(4), retrygo.Context(ctx))
	return &ch, err
}

func (c *Client) ChargeBackoffV4(ctx context.Context, body []byte) error {
	op := func() error {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return backoff4.Permanent(err)
		}
		key := ksuid.New().String() // related "libs.go:85: retry callback" "libs.go:77: sent as header \"Idempotency-Key\"" // want `ksuid\.New makes a new idempotency key per attempt of backoff\.Retry: retries cannot be deduplicated; move it out`
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return classify(resp)
	}
	return backoff4.Retry(op, backoff4.WithContext(backoff4.NewExponentialBackOff(), ctx))
}

func (c *Client) ChargeBackoffV5(ctx context.Context, body []byte) (*Charge, error) {
	return backoff5.Retry(ctx, func() (*Charge, error) {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return nil, backoff5.Permanent(err)
		}
		req.Header.Set("Idempotency-Key", ulid.Make().String()) // related "libs.go:89: retry callback" "libs.go:94: sent as header \"Idempotency-Key\"" // want `ulid\.Make makes a new idempotency key per attempt of backoff\.Retry: retries cannot be deduplicated; move it out`
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if err := classify(resp); err != nil {
			return nil, err
		}
		var ch Charge
		if err := json.NewDecoder(resp.Body).Decode(&ch); err != nil {
			return nil, backoff5.Permanent(err)
		}
		return &ch, nil
	}, backoff5.WithMaxTries(4))
}

func (c *Client) ChargeSethvargo(ctx context.Context, body []byte) error {
	b := sethretry.WithMaxRetries(3, sethretry.NewExponential(100*time.Millisecond))
	return sethretry.Do(ctx, b, func(ctx context.Context) error {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return err
		}
		id := gofrs.Must(gofrs.NewV4()) // related "libs.go:113: retry callback" "libs.go:119: sent as header \"Idempotency-Key\"" // want `uuid\.NewV4 makes a new idempotency key per attempt of retry\.Do: retries cannot be deduplicated; move it out`
		req.Header.Set("Idempotency-Key", id.String())
		resp, err := c.http.Do(req)
		if err != nil {
			return sethretry.RetryableError(err)
		}
		defer resp.Body.Close()
		if err := classify(resp); errors.Is(err, errRetryable) {
			return sethretry.RetryableError(err)
		} else if err != nil {
			return err
		}
		return nil
	})
}

func (c *Client) ChargeK8s(ctx context.Context, body []byte) error {
	return k8sretry.OnError(k8sretry.DefaultBackoff, func(err error) bool { return errors.Is(err, errRetryable) }, func() error {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "libs.go:135: retry callback" "libs.go:140: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of retry\.OnError: retries cannot be deduplicated; move it out`
		resp, err := c.http.Do(req)
		if err != nil {
			return fmt.Errorf("%w: %v", errRetryable, err)
		}
		defer resp.Body.Close()
		return classify(resp)
	})
}

func (c *Client) ChargeK8sWait(ctx context.Context, body []byte) error {
	return wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Steps: 5, Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.1}, func(ctx context.Context) (bool, error) {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return false, err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "libs.go:151: retry callback" "libs.go:156: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of wait\.ExponentialBackoffWithContext; move it out`
		resp, err := c.http.Do(req)
		if err != nil {
			log.Printf("charge: %v", err)
			return false, nil
		}
		defer resp.Body.Close()
		if err := classify(resp); err != nil {
			return false, nil
		}
		return true, nil
	})
}

func (c *Client) ChargeFailsafe(ctx context.Context, body []byte) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(3).Build()
	return failsafe.Run(func() error {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "libs.go:172: retry callback" "libs.go:177: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of failsafe\.Run: retries cannot be deduplicated; move it out`
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return classify(resp)
	}, rp)
}

func (c *Client) ChargeGax(ctx context.Context, body []byte, opts ...gax.CallOption) error {
	return gax.Invoke(ctx, func(ctx context.Context, _ gax.CallSettings) error {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "libs.go:188: retry callback" "libs.go:193: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of gax\.Invoke: retries cannot be deduplicated; move it out`
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return classify(resp)
	}, opts...)
}

func (c *Client) ChargeRuntime(ctx context.Context, body []byte) (*Charge, error) {
	return idemretry.DoValue(ctx, idemretry.Policy{MaxAttempts: 4}, func(ctx context.Context, a idemretry.Attempt) (*Charge, error) {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "libs.go:204: retry callback" "libs.go:209: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of retry\.DoValue: retries cannot be deduplicated; move it out`
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if err := classify(resp); err != nil {
			return nil, err
		}
		var ch Charge
		return &ch, json.NewDecoder(resp.Body).Decode(&ch)
	})
}

// stripe-go: params built with an error-free constructor, the key set after a nil test of
// something else.
func ChargeStripe(ctx context.Context, amount int64, customer *string) (*stripe.PaymentIntent, error) {
	var pi *stripe.PaymentIntent
	err := retrygo.Do(func() error {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount), Currency: stripe.String("eur")}
		if customer != nil {
			params.Currency = stripe.String("usd")
		}
		params.SetIdempotencyKey(uuid.NewString()) // related "libs.go:227: retry callback" "libs.go:232: sent as SetIdempotencyKey" // want `uuid\.NewString makes a new idempotency key per attempt of retry\.Do: retries cannot be deduplicated; move it out`
		var err error
		pi, err = paymentintent.New(params)
		return err
	}, retrygo.Attempts(3))
	return pi, err
}

// ---- Not reported: the same bodies with the key made before the helper call ----

func (c *Client) ChargeRetryGoKeyed(ctx context.Context, body []byte) (*Charge, error) {
	var ch Charge
	key := uuid.NewString()
	err := retrygo.Do(func() error {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return retrygo.Unrecoverable(err)
		}
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Request-ID", uuid.NewString())
		resp, err := c.http.Do(req)
		if err != nil {
			log.Printf("charge: %v", err)
			return err
		}
		defer resp.Body.Close()
		if err := classify(resp); err != nil {
			return err
		}
		return json.NewDecoder(resp.Body).Decode(&ch)
	}, retrygo.Attempts(4), retrygo.Context(ctx))
	return &ch, err
}

func (c *Client) ChargeRuntimeKeyed(ctx context.Context, body []byte) error {
	key := uuid.NewString()
	return idemretry.Do(ctx, idemretry.Policy{}, func(ctx context.Context, a idemretry.Attempt) error {
		req, err := c.newChargeRequest(ctx, body)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return classify(resp)
	})
}

// stripe-go params filled in once: the test is of the params' own key field.
func ChargeStripeOnce(ctx context.Context, amount int64) (*stripe.PaymentIntent, error) {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount), Currency: stripe.String("eur")}
	var pi *stripe.PaymentIntent
	err := retrygo.Do(func() error {
		if params.IdempotencyKey == nil {
			params.SetIdempotencyKey(uuid.NewString())
		}
		var err error
		pi, err = paymentintent.New(params)
		if err != nil {
			log.Printf("payment intent: %v", err)
		}
		return err
	}, retrygo.Attempts(3))
	return pi, err
}

// The same, assigning the field directly.
func ChargeStripeField(ctx context.Context, amount int64) (*stripe.PaymentIntent, error) {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	var pi *stripe.PaymentIntent
	err := retrygo.Do(func() error {
		if params.IdempotencyKey == nil {
			params.IdempotencyKey = stripe.String(uuid.NewString())
		}
		var err error
		pi, err = paymentintent.New(params)
		return err
	})
	return pi, err
}
