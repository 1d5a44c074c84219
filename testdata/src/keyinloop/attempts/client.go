// Package attempts holds keys made in retry scopes whose attempt bodies look like production
// client code: the request built with an error check, several headers around the key, the
// status classified, the body decoded and closed, logging, and a select-based wait.
package attempts

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// Client is a small payments API client.
type Client struct {
	http        *http.Client
	baseURL     string
	token       string
	maxAttempts int
	logf        func(format string, args ...any)
}

// Charge is the API's answer.
type Charge struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

type chargeBody struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// errRetryable marks a failure worth another attempt.
var errRetryable = errors.New("retryable")

// classify turns a response status into nil, a retryable error or a permanent one.
func classify(resp *http.Response) error {
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return fmt.Errorf("%w: status %d", errRetryable, resp.StatusCode)
	case resp.StatusCode >= 400:
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// backoff is a full-jitter delay for the attempt.
func backoff(attempt int) time.Duration {
	d := 100 * time.Millisecond << attempt
	return time.Duration(rand.Int64N(int64(d)))
}
