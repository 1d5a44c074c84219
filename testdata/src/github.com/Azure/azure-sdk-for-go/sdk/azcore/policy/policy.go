// Package policy is a stub of github.com/Azure/azure-sdk-for-go/sdk/azcore/policy.
package policy

import "time"

type ClientOptions struct {
	Retry RetryOptions
}

type RetryOptions struct {
	MaxRetries    int32
	TryTimeout    time.Duration
	RetryDelay    time.Duration
	MaxRetryDelay time.Duration
}
