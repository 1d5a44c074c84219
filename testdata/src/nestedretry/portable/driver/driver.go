// Package driver declares what a queue service driver implements.
package driver

import "context"

type Message struct {
	Body     []byte
	Metadata map[string]string
}

// Topic sends messages to one topic of a service.
type Topic interface {
	SendBatch(ctx context.Context, ms []*Message) error
	// IsRetryable says whether an error of SendBatch is worth another attempt.
	IsRetryable(err error) bool
	Close() error
}
