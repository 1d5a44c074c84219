// Package queueseamgen keeps its messages behind an interface shaped like an SQS client's,
// and fills it with a generic ring of its own: the interface is not (only) a seam for the
// SDK's client, so calls through it are not taken for SQS calls.
package queueseamgen

import (
	"log"

	"github.com/aws/aws-sdk-go/service/sqs"
)

// Buffer is filled by the package's own generic ring of messages.
type Buffer interface {
	ReceiveMessage(*sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error)
	DeleteMessage(*sqs.DeleteMessageInput) (*sqs.DeleteMessageOutput, error)
}

type ring[T any] struct {
	items []T
	wrap  func(T) *sqs.Message
}

func (r *ring[T]) ReceiveMessage(*sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error) {
	out := &sqs.ReceiveMessageOutput{}
	for _, it := range r.items {
		out.Messages = append(out.Messages, r.wrap(it))
	}
	r.items = r.items[:0]
	return out, nil
}

func (r *ring[T]) DeleteMessage(*sqs.DeleteMessageInput) (*sqs.DeleteMessageOutput, error) {
	return &sqs.DeleteMessageOutput{}, nil
}

func NewBuffer(words []string) Buffer {
	return &ring[string]{items: words, wrap: func(s string) *sqs.Message { return &sqs.Message{Body: &s} }}
}

// Flush drains the buffer: not reported.
func Flush(b Buffer, logger *log.Logger) int {
	out, err := b.ReceiveMessage(&sqs.ReceiveMessageInput{})
	if err != nil {
		logger.Printf("flush: %v", err)
		return 0
	}
	for _, m := range out.Messages {
		if _, err := b.DeleteMessage(&sqs.DeleteMessageInput{ReceiptHandle: m.ReceiptHandle}); err != nil {
			logger.Printf("flush: delete: %v", err)
		}
	}
	return len(out.Messages)
}
