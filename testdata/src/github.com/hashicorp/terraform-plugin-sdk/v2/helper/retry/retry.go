// Package retry is a stub of github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry
// (v2.40.1, public signatures only).
package retry

import (
	"context"
	"time"
)

type RetryFunc func() *RetryError

type RetryError struct {
	Err       error
	Retryable bool
}

func (e *RetryError) Unwrap() error { return e.Err }

func RetryableError(err error) *RetryError    { return &RetryError{Err: err, Retryable: true} }
func NonRetryableError(err error) *RetryError { return &RetryError{Err: err} }

func RetryContext(ctx context.Context, timeout time.Duration, f RetryFunc) error {
	if r := f(); r != nil {
		return r.Err
	}
	return nil
}

// Deprecated: Use RetryContext instead.
func Retry(timeout time.Duration, f RetryFunc) error {
	return RetryContext(context.Background(), timeout, f)
}

type StateRefreshFunc func() (result interface{}, state string, err error)

type StateChangeConf struct {
	Delay                     time.Duration
	Pending                   []string
	Refresh                   StateRefreshFunc
	Target                    []string
	Timeout                   time.Duration
	MinTimeout                time.Duration
	PollInterval              time.Duration
	NotFoundChecks            int
	ContinuousTargetOccurence int
}

func (conf *StateChangeConf) WaitForStateContext(ctx context.Context) (interface{}, error) {
	r, _, err := conf.Refresh()
	return r, err
}

// Deprecated: Use WaitForStateContext instead.
func (conf *StateChangeConf) WaitForState() (interface{}, error) {
	return conf.WaitForStateContext(context.Background())
}
