// Package pubsub is a stub of cloud.google.com/go/internal/pubsub, whose Message both
// Pub/Sub modules alias.
package pubsub

import "time"

type Message struct {
	ID              string
	Data            []byte
	Attributes      map[string]string
	PublishTime     time.Time
	DeliveryAttempt *int
	OrderingKey     string
}

func (m *Message) Ack()  {}
func (m *Message) Nack() {}
