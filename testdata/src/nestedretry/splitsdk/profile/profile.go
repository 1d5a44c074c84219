// Package profile holds the settings of splitsdk's clients. NetworkFailureMaxRetries and
// RateLimitMaxRetries default to zero: one attempt.
package profile

import "time"

type HTTPProfile struct {
	Endpoint   string
	ReqTimeout int // seconds
}

type ClientProfile struct {
	HTTPProfile              *HTTPProfile
	Language                 string
	NetworkFailureMaxRetries int
	NetworkFailureRetryDelay func(attempt int) time.Duration
	RateLimitMaxRetries      int
}

// NewClientProfile returns the defaults: a 60 s request timeout, no retries.
func NewClientProfile() *ClientProfile {
	return &ClientProfile{
		HTTPProfile: &HTTPProfile{ReqTimeout: 60},
		Language:    "en-US",
		NetworkFailureRetryDelay: func(attempt int) time.Duration {
			return time.Duration(attempt) * time.Second
		},
	}
}
