// Package pubsub is a stub of cloud.google.com/go/pubsub/v2 (v2.9.0, public signatures only).
package pubsub

import (
	"context"
	"time"

	ipubsub "cloud.google.com/go/internal/pubsub"
)

type Message = ipubsub.Message

type Client struct{}

func NewClient(ctx context.Context, projectID string) (*Client, error) { return &Client{}, nil }

func (c *Client) Subscriber(nameOrID string) *Subscriber { return &Subscriber{} }

type Subscriber struct{}

// Receive calls f with the messages it pulls until ctx is done or an error it cannot retry:
// it reconnects its stream after a retryable one, with backoff (as the real one does).
func (s *Subscriber) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	for attempt := 1; ; attempt++ {
		err := s.pull(ctx, f)
		if err == nil || ctx.Err() != nil {
			return err
		}
		time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
	}
}

func (s *Subscriber) pull(ctx context.Context, f func(context.Context, *Message)) error {
	return nil
}
