// Package config is a stub of github.com/aws/aws-sdk-go-v2/config.
package config

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type LoadOptions struct {
	RetryMaxAttempts int
}

func LoadDefaultConfig(ctx context.Context, optFns ...func(*LoadOptions) error) (aws.Config, error) {
	return aws.Config{}, nil
}
func WithRetryMaxAttempts(v int) func(*LoadOptions) error       { return nil }
func WithRetryer(v func() aws.Retryer) func(*LoadOptions) error { return nil }
func WithRegion(v string) func(*LoadOptions) error              { return nil }
func WithSharedConfigProfile(v string) func(*LoadOptions) error { return nil }
func WithHTTPClient(v aws.HTTPClient) func(*LoadOptions) error  { return nil }
