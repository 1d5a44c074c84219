package loops

import (
	"context"
	"log"

	"cloud.google.com/go/pubsub"
)

// Loops that hand their context to the attempt and never leave on a failure: bounded by the
// context only when the attempt returns nil once it is done.

// ReceiveAll pulls messages until the context is cancelled: Receive then returns nil, which
// leaves the loop.
func ReceiveAll(ctx context.Context, sub *pubsub.Subscription, handle func(*pubsub.Message)) { // want ReceiveAll:`retries: retry loop at untildone.go:16, attempts=unbounded \(local\)`
	for { // want `retry loop: attempts=unbounded wait=none deadline=context`
		err := sub.Receive(ctx, func(_ context.Context, m *pubsub.Message) { // want `message handler \(Pub/Sub\): attempts=unbounded wait=unknown deadline=unknown`
			handle(m)
		})
		if err == nil {
			return
		}
		log.Printf("receive: %v", err)
	}
}

// PublishAll goes round on every failure of a call that fails once the context is done: the
// context does not bound it.
func PublishAll(ctx context.Context, topic *pubsub.Topic, msgs []*pubsub.Message) { // want PublishAll:`retries: retry loop at untildone.go:30, attempts=unbounded \(local\)`
	for { // want `retry loop: attempts=unbounded wait=none deadline=none`
		err := publishBatch(ctx, topic, msgs)
		if err == nil {
			return
		}
		log.Printf("publish: %v", err)
	}
}

func publishBatch(ctx context.Context, topic *pubsub.Topic, msgs []*pubsub.Message) error {
	for _, m := range msgs {
		if _, err := topic.Publish(ctx, m).Get(ctx); err != nil {
			return err
		}
	}
	return nil
}
