// Package errors is a stub of k8s.io/apimachinery/pkg/api/errors (public signatures only).
package errors

type StatusError struct{ Reason string }

func (e *StatusError) Error() string { return e.Reason }

func IsNotFound(err error) bool      { return false }
func IsConflict(err error) bool      { return false }
func IsAlreadyExists(err error) bool { return false }
func IsServerTimeout(err error) bool { return false }
