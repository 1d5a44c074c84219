// Package github is a stand-in for go-github's error types and CheckResponse.
package github

import (
	"fmt"
	"net/http"
	"time"
)

type Rate struct {
	Limit     int
	Remaining int
	Reset     Timestamp
}

type Timestamp struct{ time.Time }

type ErrorResponse struct {
	Response *http.Response
	Message  string
}

func (r *ErrorResponse) Error() string { return r.Message }

// RateLimitError occurs when GitHub returns 403 Forbidden with the rate limit spent.
type RateLimitError struct {
	Rate     Rate
	Response *http.Response
	Message  string
}

func (r *RateLimitError) Error() string { return fmt.Sprintf("rate limit: %s", r.Message) }

// AbuseRateLimitError occurs when GitHub returns 403 Forbidden for the secondary limit.
type AbuseRateLimitError struct {
	Response   *http.Response
	Message    string
	RetryAfter *time.Duration
}

func (r *AbuseRateLimitError) Error() string { return r.Message }

func (r *AbuseRateLimitError) GetRetryAfter() time.Duration {
	if r.RetryAfter == nil {
		return 0
	}
	return *r.RetryAfter
}

// CheckResponse returns an error for an answer outside 2xx.
func CheckResponse(r *http.Response) error {
	if c := r.StatusCode; 200 <= c && c <= 299 {
		return nil
	}
	if r.StatusCode == http.StatusForbidden && r.Header.Get("X-RateLimit-Remaining") == "0" {
		return &RateLimitError{Response: r, Message: "API rate limit exceeded"}
	}
	if r.Header.Get("Retry-After") != "" {
		d := time.Minute
		return &AbuseRateLimitError{Response: r, Message: "secondary rate limit", RetryAfter: &d}
	}
	return &ErrorResponse{Response: r, Message: r.Status}
}
