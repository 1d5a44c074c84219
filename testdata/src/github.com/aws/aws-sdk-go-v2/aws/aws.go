// Package aws is a stub of github.com/aws/aws-sdk-go-v2/aws.
package aws

import (
	"context"
	"net/http"
	"time"
)

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
	Credentials      CredentialsProvider
}

// Credentials are AWS credentials.
type Credentials struct {
	AccessKeyID, SecretAccessKey, SessionToken string
	Expires                                    time.Time
}

// A CredentialsProvider fetches credentials (from STS, the instance metadata service, a file).
type CredentialsProvider interface {
	Retrieve(ctx context.Context) (Credentials, error)
}

// CredentialsCache caches a provider's credentials until they expire.
type CredentialsCache struct{ provider CredentialsProvider }

func NewCredentialsCache(p CredentialsProvider) *CredentialsCache {
	return &CredentialsCache{provider: p}
}

func (c *CredentialsCache) Retrieve(ctx context.Context) (Credentials, error) {
	return c.provider.Retrieve(ctx)
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
