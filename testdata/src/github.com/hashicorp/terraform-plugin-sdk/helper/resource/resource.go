// Package resource is a stub of github.com/hashicorp/terraform-plugin-sdk/helper/resource
// (v1.17.2, public signatures only).
package resource

import "time"

type RetryFunc func() *RetryError

type RetryError struct {
	Err       error
	Retryable bool
}

func RetryableError(err error) *RetryError    { return &RetryError{Err: err, Retryable: true} }
func NonRetryableError(err error) *RetryError { return &RetryError{Err: err} }

func Retry(timeout time.Duration, f RetryFunc) error {
	if r := f(); r != nil {
		return r.Err
	}
	return nil
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

func (conf *StateChangeConf) WaitForState() (interface{}, error) {
	r, _, err := conf.Refresh()
	return r, err
}

func UniqueId() string                      { return "" }
func PrefixedUniqueId(prefix string) string { return prefix }
