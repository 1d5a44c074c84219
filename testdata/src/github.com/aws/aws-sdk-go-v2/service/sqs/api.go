// Package sqs is a stub of github.com/aws/aws-sdk-go-v2/service/sqs (v1.53.0, public
// signatures only).
package sqs

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

type Options struct{ RetryMaxAttempts int }
type Client struct{}

func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { return &Client{} }

type ReceiveMessageInput struct {
	QueueUrl            *string
	MaxNumberOfMessages int32
	VisibilityTimeout   int32
	WaitTimeSeconds     int32
}

type ReceiveMessageOutput struct{ Messages []types.Message }

func (c *Client) ReceiveMessage(ctx context.Context, params *ReceiveMessageInput, optFns ...func(*Options)) (*ReceiveMessageOutput, error) {
	return &ReceiveMessageOutput{}, nil
}

type DeleteMessageInput struct {
	QueueUrl      *string
	ReceiptHandle *string
}

type DeleteMessageOutput struct{}

func (c *Client) DeleteMessage(ctx context.Context, params *DeleteMessageInput, optFns ...func(*Options)) (*DeleteMessageOutput, error) {
	return &DeleteMessageOutput{}, nil
}

type SendMessageInput struct {
	QueueUrl               *string
	MessageBody            *string
	MessageDeduplicationId *string
	MessageGroupId         *string
}

type SendMessageOutput struct{ MessageId *string }

func (c *Client) SendMessage(ctx context.Context, params *SendMessageInput, optFns ...func(*Options)) (*SendMessageOutput, error) {
	return &SendMessageOutput{}, nil
}

type ListQueuesInput struct{ QueueNamePrefix *string }

type ListQueuesOutput struct{ QueueUrls []string }

func (c *Client) ListQueues(ctx context.Context, params *ListQueuesInput, optFns ...func(*Options)) (*ListQueuesOutput, error) {
	return &ListQueuesOutput{}, nil
}

type ListQueuesPaginator struct{}

func NewListQueuesPaginator(client *Client, params *ListQueuesInput) *ListQueuesPaginator {
	return &ListQueuesPaginator{}
}

func (p *ListQueuesPaginator) HasMorePages() bool { return false }

func (p *ListQueuesPaginator) NextPage(ctx context.Context, optFns ...func(*Options)) (*ListQueuesOutput, error) {
	return &ListQueuesOutput{}, nil
}
