// Package pubsub is a stub of cloud.google.com/go/pubsub/v2 (v2.9.0, public signatures only).
package pubsub

import (
	"context"

	ipubsub "cloud.google.com/go/internal/pubsub"
)

type Message = ipubsub.Message

type Client struct{}

func NewClient(ctx context.Context, projectID string) (*Client, error) { return &Client{}, nil }

func (c *Client) Subscriber(nameOrID string) *Subscriber { return &Subscriber{} }

type Subscriber struct{}

func (s *Subscriber) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	return nil
}
