// Package sqs is a stub of github.com/aws/aws-sdk-go/service/sqs.
package sqs

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
	"github.com/aws/aws-sdk-go/aws/session"
)

type SQS struct{}

func New(p *session.Session, cfgs ...*aws.Config) *SQS { return &SQS{} }

type Message struct {
	Body          *string
	MessageId     *string
	ReceiptHandle *string
}

type ReceiveMessageInput struct {
	QueueUrl            *string
	MaxNumberOfMessages *int64
	WaitTimeSeconds     *int64
	AttributeNames      []*string
}

type ReceiveMessageOutput struct{ Messages []*Message }

type DeleteMessageInput struct {
	QueueUrl      *string
	ReceiptHandle *string
}

type DeleteMessageOutput struct{}

func (c *SQS) ReceiveMessage(input *ReceiveMessageInput) (*ReceiveMessageOutput, error) {
	return c.ReceiveMessageWithContext(aws.Context(nil), input)
}

func (c *SQS) ReceiveMessageWithContext(ctx aws.Context, input *ReceiveMessageInput, opts ...request.Option) (*ReceiveMessageOutput, error) {
	return &ReceiveMessageOutput{}, nil
}

func (c *SQS) DeleteMessage(input *DeleteMessageInput) (*DeleteMessageOutput, error) {
	return c.DeleteMessageWithContext(aws.Context(nil), input)
}

func (c *SQS) DeleteMessageWithContext(ctx aws.Context, input *DeleteMessageInput, opts ...request.Option) (*DeleteMessageOutput, error) {
	return &DeleteMessageOutput{}, nil
}
