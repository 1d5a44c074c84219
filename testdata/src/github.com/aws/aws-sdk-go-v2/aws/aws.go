// Package aws is a stub of github.com/aws/aws-sdk-go-v2/aws.
package aws

import "net/http"

// HTTPClient sends the SDK's requests (the real package's interface).
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

type Retryer interface {
	MaxAttempts() int
}

type Config struct {
	Region           string
	RetryMaxAttempts int
	Retryer          func() Retryer
	HTTPClient       HTTPClient
}

// NopRetryer never retries.
type NopRetryer struct{}

func (NopRetryer) MaxAttempts() int { return 1 }

func String(v string) *string { return &v }
func Int32(v int32) *int32    { return &v }

func ToString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
