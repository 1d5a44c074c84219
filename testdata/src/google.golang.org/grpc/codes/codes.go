// Package codes is a stub of google.golang.org/grpc/codes.
package codes

// Code is a gRPC status code.
type Code uint32

const (
	OK                Code = 0
	Unknown           Code = 2
	DeadlineExceeded  Code = 4
	ResourceExhausted Code = 8
	Internal          Code = 13
	Unavailable       Code = 14
)
