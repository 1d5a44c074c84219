// Package pubsub is a stub of cloud.google.com/go/pubsub (v1.52.0, public signatures only).
package pubsub

import (
	"context"

	ipubsub "cloud.google.com/go/internal/pubsub"
)

type Message = ipubsub.Message

type Client struct{}

func NewClient(ctx context.Context, projectID string) (*Client, error) { return &Client{}, nil }

func (c *Client) Subscription(id string) *Subscription { return &Subscription{} }
func (c *Client) Topic(id string) *Topic               { return &Topic{} }

type ReceiveSettings struct{ MaxOutstandingMessages, NumGoroutines int }

type Subscription struct{ ReceiveSettings ReceiveSettings }

func (s *Subscription) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	return nil
}

type PublishResult struct{}

func (r *PublishResult) Get(ctx context.Context) (string, error) { return "", nil }

type Topic struct{}

func (t *Topic) Publish(ctx context.Context, msg *Message) *PublishResult { return &PublishResult{} }
