// Package resource is a stub of github.com/hashicorp/terraform-plugin-sdk/v2/helper/resource
// (v2.40.1: since v2.26.0 its retry API is aliases of helper/retry).
package resource

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry"
)

type StateRefreshFunc = retry.StateRefreshFunc
type StateChangeConf = retry.StateChangeConf
type RetryFunc = retry.RetryFunc
type RetryError = retry.RetryError

// Deprecated: Use helper/retry.RetryContext instead.
func RetryContext(ctx context.Context, timeout time.Duration, f RetryFunc) error {
	return retry.RetryContext(ctx, timeout, f)
}

// Deprecated: Use helper/retry.Retry instead.
func Retry(timeout time.Duration, f RetryFunc) error { return retry.Retry(timeout, f) }

func RetryableError(err error) *RetryError    { return retry.RetryableError(err) }
func NonRetryableError(err error) *RetryError { return retry.NonRetryableError(err) }

func UniqueId() string { return "" }
