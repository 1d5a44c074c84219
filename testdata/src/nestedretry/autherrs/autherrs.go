// Package autherrs classifies a client's errors by the behaviour they carry: an error that
// says it is an authentication failure, anywhere in its chain of causes.
package autherrs

import (
	"errors"
	"fmt"
	"net"
)

type wrapped struct {
	msg   string
	cause error
}

func (w *wrapped) Error() string { return w.msg + ": " + w.cause.Error() }
func (w *wrapped) Cause() error  { return w.cause }

// Wrap adds context to an error.
func Wrap(err error, msg string) error { return &wrapped{msg: msg, cause: err} }

type authError struct{ cause error }

func (a authError) Error() string   { return fmt.Sprintf("authentication required: %v", a.cause) }
func (a authError) AuthError() bool { return true }

// NewAuthError marks err as an authentication failure (a 401).
func NewAuthError(err error) error { return authError{err} }

func parentOf(err error) error {
	if c, ok := err.(interface{ Cause() error }); ok {
		return c.Cause()
	}
	return nil
}

// IsAuthError reports whether err, or one of its causes, is an authentication failure.
func IsAuthError(err error) bool {
	if e, ok := err.(interface{ AuthError() bool }); ok {
		return e.AuthError()
	}
	if parent := parentOf(err); parent != nil {
		return IsAuthError(parent)
	}
	return false
}

// IsNetworkError reports whether err comes from the network (a timeout, a refused connection).
func IsNetworkError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}
