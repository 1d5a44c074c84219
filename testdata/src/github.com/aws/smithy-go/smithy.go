// Package smithy is a stub of github.com/aws/smithy-go (v1.22.0): the interface of the errors
// an AWS service answers with.
package smithy

// ErrorFault says whose fault an API error is.
type ErrorFault int

const (
	FaultUnknown ErrorFault = iota
	FaultServer
	FaultClient
)

// APIError is an error an AWS service answered with.
type APIError interface {
	error
	ErrorCode() string
	ErrorMessage() string
	ErrorFault() ErrorFault
}
