// Package status is a stub of google.golang.org/grpc/status.
package status

import "google.golang.org/grpc/codes"

// Status is a gRPC status: a code and a message.
type Status struct {
	code codes.Code
	msg  string
}

func (s *Status) Code() codes.Code { return s.code }
func (s *Status) Message() string  { return s.msg }
func (s *Status) Err() error       { return &statusError{s} }

type statusError struct{ s *Status }

func (e *statusError) Error() string { return "rpc error: " + e.s.msg }

// New returns a Status with the code and message.
func New(c codes.Code, msg string) *Status { return &Status{code: c, msg: msg} }

// Error returns an error with the code and message.
func Error(c codes.Code, msg string) error { return New(c, msg).Err() }

// Code returns the code of an error made by this package, Unknown for other errors, OK for nil.
func Code(err error) codes.Code {
	if err == nil {
		return codes.OK
	}
	if se, ok := err.(*statusError); ok {
		return se.s.code
	}
	return codes.Unknown
}

// FromError returns the Status of an error made by this package.
func FromError(err error) (*Status, bool) {
	if se, ok := err.(*statusError); ok {
		return se.s, true
	}
	return New(codes.Unknown, err.Error()), false
}
