// Package request is a stub of github.com/aws/aws-sdk-go/aws/request.
package request

type Request struct{}

type Option func(*Request)
