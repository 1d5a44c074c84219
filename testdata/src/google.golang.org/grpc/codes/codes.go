// Package codes is a stub of google.golang.org/grpc/codes.
package codes

// Code is a gRPC status code.
type Code uint32

const (
	OK                Code = 0
	Canceled          Code = 1
	Unknown           Code = 2
	InvalidArgument   Code = 3
	DeadlineExceeded  Code = 4
	NotFound          Code = 5
	PermissionDenied  Code = 7
	ResourceExhausted Code = 8
	Internal          Code = 13
	Unavailable       Code = 14
)
