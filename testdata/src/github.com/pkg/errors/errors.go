// Package errors is a stand-in for github.com/pkg/errors: errors with a stack, and Cause,
// which returns the error a chain of wrappers started from.
package errors

import (
	stderrors "errors"
	"fmt"
)

type withStack struct{ error }

func (w withStack) Unwrap() error { return w.error }

// New returns an error with the message.
func New(msg string) error { return withStack{fmt.Errorf("%s", msg)} }

// Errorf formats an error.
func Errorf(format string, args ...any) error { return withStack{fmt.Errorf(format, args...)} }

// WithStack annotates err with a stack.
func WithStack(err error) error {
	if err == nil {
		return nil
	}
	return withStack{err}
}

// Wrap annotates err with a message.
func Wrap(err error, msg string) error {
	if err == nil {
		return nil
	}
	return withStack{fmt.Errorf("%s: %w", msg, err)}
}

// Cause returns the error err wraps, all the way down.
func Cause(err error) error {
	for err != nil {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			break
		}
		err = u.Unwrap()
	}
	return err
}

// As is errors.As of the standard library.
func As(err error, target any) bool { return stderrors.As(err, target) }

// Is is errors.Is of the standard library.
func Is(err, target error) bool { return stderrors.Is(err, target) }
