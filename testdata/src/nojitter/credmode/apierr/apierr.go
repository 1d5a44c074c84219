// Package apierr classifies a storage client's errors by the behaviour they carry, anywhere
// in their chain of causes.
package apierr

import (
	"fmt"
	"net/http"
)

type wrapped struct {
	msg   string
	cause error
}

func (w *wrapped) Error() string { return w.msg + ": " + w.cause.Error() }
func (w *wrapped) Cause() error  { return w.cause }

// Wrap adds context to an error.
func Wrap(err error, msg string) error {
	if err == nil {
		return nil
	}
	return &wrapped{msg: msg, cause: err}
}

type authError struct{ *wrapped }

func (authError) AuthError() bool { return true }

type serverError struct {
	*wrapped
	status int
}

func (e serverError) Retryable() bool {
	return e.status >= 500 || e.status == http.StatusTooManyRequests
}

// FromResponse returns the error an answer stands for, nil for a 2xx or 3xx.
func FromResponse(res *http.Response) error {
	if res.StatusCode < 400 {
		return nil
	}
	base := &wrapped{msg: res.Status, cause: fmt.Errorf("%s %s", res.Request.Method, res.Request.URL)}
	switch {
	case res.StatusCode == http.StatusUnauthorized:
		return authError{base}
	case res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests:
		return serverError{base, res.StatusCode}
	}
	return base
}

func parentOf(err error) error {
	if c, ok := err.(interface{ Cause() error }); ok {
		return c.Cause()
	}
	return nil
}

// IsAuthError reports whether err, or one of its causes, says that credentials are missing or
// were refused.
func IsAuthError(err error) bool {
	if e, ok := err.(interface{ AuthError() bool }); ok {
		return e.AuthError()
	}
	if parent := parentOf(err); parent != nil {
		return IsAuthError(parent)
	}
	return false
}

// IsRetryable reports whether err, or one of its causes, is a failure worth sending again.
func IsRetryable(err error) bool {
	if e, ok := err.(interface{ Retryable() bool }); ok {
		return e.Retryable()
	}
	if parent := parentOf(err); parent != nil {
		return IsRetryable(parent)
	}
	return false
}
