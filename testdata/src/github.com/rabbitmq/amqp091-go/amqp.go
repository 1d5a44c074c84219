// Package amqp091 is a stub of github.com/rabbitmq/amqp091-go (v1.16.0, public signatures
// only).
package amqp091

import (
	"context"
	"time"
)

type Table map[string]interface{}

type Delivery struct {
	Headers       Table
	ContentType   string
	CorrelationId string
	MessageId     string
	Timestamp     time.Time
	Type          string
	DeliveryTag   uint64
	Redelivered   bool
	Exchange      string
	RoutingKey    string
	Body          []byte
}

func (d Delivery) Ack(multiple bool) error           { return nil }
func (d Delivery) Reject(requeue bool) error         { return nil }
func (d Delivery) Nack(multiple, requeue bool) error { return nil }

type Channel struct{}

func (ch *Channel) Consume(queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	return nil, nil
}

func (ch *Channel) ConsumeWithContext(ctx context.Context, queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	return nil, nil
}

func (ch *Channel) Ack(tag uint64, multiple bool) error                { return nil }
func (ch *Channel) Nack(tag uint64, multiple bool, requeue bool) error { return nil }
func (ch *Channel) Reject(tag uint64, requeue bool) error              { return nil }
