package retry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

var errUnavailable = retry.Transient(errors.New("inventory service unavailable"))

// The zero Policy is the safe default: 4 attempts, full jitter, bounded by ctx's deadline.
func ExampleDo() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()

	err := retry.Do(ctx, retry.Policy{BaseDelay: time.Millisecond}, func(ctx context.Context, a retry.Attempt) error {
		fmt.Println("attempt", a.Number)
		if a.Number < 3 {
			return errUnavailable // transient: retried
		}
		return nil
	})
	fmt.Println("error:", err)
	// Output:
	// attempt 1
	// attempt 2
	// attempt 3
	// error: <nil>
}

func ExampleDoValue() {
	price, err := retry.DoValue(context.Background(), retry.Policy{}, func(ctx context.Context, a retry.Attempt) (int, error) {
		return 1299, nil // e.g. a price fetched from a dependency
	})
	fmt.Println(price, err)
	// Output: 1299 <nil>
}

// Do returns an *Error that says why it stopped and wraps the last attempt's error.
func ExampleError() {
	err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 2, BaseDelay: time.Millisecond},
		func(context.Context, retry.Attempt) error { return errUnavailable })

	var re *retry.Error
	if errors.As(err, &re) {
		fmt.Println("attempts:", re.Attempts)
	}
	fmt.Println(errors.Is(err, retry.ErrAttemptsExhausted), errors.Is(err, errUnavailable))
	fmt.Println(err)
	// Output:
	// attempts: 2
	// true true
	// retry: attempts exhausted after 2 attempts: inventory service unavailable
}

// Permanent stops the loop at once, whatever the classifier would say.
func ExamplePermanent() {
	errInvalidCard := errors.New("card number is invalid")
	err := retry.Do(context.Background(), retry.Policy{}, func(context.Context, retry.Attempt) error {
		return retry.Permanent(errInvalidCard)
	})
	fmt.Println(errors.Is(err, retry.ErrPermanent), errors.Is(err, errInvalidCard))
	// Output: true true
}

// CheckHTTP turns an HTTP exchange into an error the classifier understands: status,
// Retry-After, and whether a POST carried an Idempotency-Key.
func ExampleCheckHTTP() {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, `{"id":"ch_1"}`)
	}))
	defer srv.Close()

	key := "charge-order-42" // made once, before the first attempt, reused by every retry
	body, err := retry.DoValue(context.Background(), retry.Policy{BaseDelay: time.Millisecond},
		func(ctx context.Context, a retry.Attempt) (string, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, nil)
			req.Header.Set(retry.IdempotencyKeyHeader, key)
			resp, err := http.DefaultClient.Do(req)
			if err := retry.CheckHTTP(req, resp, err); err != nil {
				if resp != nil {
					resp.Body.Close()
				}
				return "", err
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			return string(b), err
		})
	fmt.Println(body, err, calls.Load())
	// Output: {"id":"ch_1"} <nil> 2
}

// A Budget and a Breaker belong to one dependency and are shared by every call to it.
func ExampleNewBudget() {
	payments := retry.Policy{
		Timeout: 3 * time.Second,
		Budget:  retry.NewBudget(retry.BudgetConfig{}),   // retries under 10% of requests
		Breaker: retry.NewBreaker(retry.BreakerConfig{}), // stop calling it when it is down
		OnRetry: func(ctx context.Context, r retry.RetryInfo) {
			// log or count: r.Attempt, r.Err, r.Delay, r.RetryAfter
		},
	}
	err := retry.Do(context.Background(), payments, func(ctx context.Context, a retry.Attempt) error {
		return nil
	})
	fmt.Println(err, payments.Breaker.State())
	// Output: <nil> closed
}

// Hand-written loops jitter their waits with the same functions.
func ExampleFullJitter() {
	base, limit := 100*time.Millisecond, 5*time.Second
	for n := 1; n <= 3; n++ {
		wait := retry.FullJitter(retry.Backoff(n, base, limit))
		fmt.Println(wait >= 0 && wait <= retry.Backoff(n, base, limit))
		// time.Sleep(wait), or better, a select on ctx.Done() and a timer
	}
	// Output:
	// true
	// true
	// true
}
