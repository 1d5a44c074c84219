// Package temporal is a stub of go.temporal.io/sdk/temporal (v1.51.0, public signatures only).
package temporal

import "go.temporal.io/sdk/internal"

type RetryPolicy = internal.RetryPolicy

type ApplicationError struct{ msg string }

func (e *ApplicationError) Error() string { return e.msg }

func NewNonRetryableApplicationError(message, errType string, cause error, details ...interface{}) error {
	return &ApplicationError{msg: message}
}
