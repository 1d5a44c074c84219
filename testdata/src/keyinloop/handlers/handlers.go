// Package handlers handles messages that brokers deliver again: a key made while handling one
// is new on every delivery; the fix derives it from the message's own identity.
package handlers

import (
	"bytes"
	"context"
	"log"
	"net/http"
	"time"

	"cloud.google.com/go/pubsub/v2"
	"github.com/IBM/sarama"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
)

var client = &http.Client{Timeout: 10 * time.Second}

func post(ctx context.Context, url string, body []byte, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Pub/Sub: the key from the message ID.
func receive(ctx context.Context, c *pubsub.Client) error {
	return c.Subscriber("payments").Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		if err := post(ctx, "https://ledger.example.com/v1/entries", m.Data, uuid.NewString()); err != nil { // related "handlers.go:40: message handler" "handlers.go:40: run again by Pub/Sub" "handlers.go:41: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run of the Pub/Sub handler; derive it from the message ID`
			log.Printf("message %s: %v", m.ID, err)
			m.Nack()
			return
		}
		m.Ack()
	})
}

// Not reported: derived from the message ID already.
func receiveDerived(ctx context.Context, c *pubsub.Client) error {
	return c.Subscriber("payments").Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		if err := post(ctx, "https://ledger.example.com/v1/entries", m.Data, "ledger:"+m.ID); err != nil {
			m.Nack()
			return
		}
		m.Ack()
	})
}

// SQS: each message launches an instance; the client token from the message ID.
func launch(ctx context.Context, q *sqs.Client, ec *ec2.Client, queue string) {
	for ctx.Err() == nil {
		out, err := q.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(queue), MaxNumberOfMessages: 10})
		if err != nil {
			log.Printf("receive: %v", err)
			continue
		}
		for _, m := range out.Messages {
			_, err := ec.RunInstances(ctx, &ec2.RunInstancesInput{
				ImageId:     m.Body,
				MinCount:    aws.Int32(1),
				MaxCount:    aws.Int32(1),
				ClientToken: aws.String(uuid.NewString()), // related "handlers.go:69: message handler" "handlers.go:74: sent as field ClientToken" // want `uuid\.NewString makes a new idempotency key per run of the SQS handler loop; derive it from the message ID`
			})
			if err != nil {
				log.Printf("launch for %s: %v", aws.ToString(m.MessageId), err)
				continue // not deleted: delivered again after the visibility timeout
			}
			_, _ = q.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(queue), ReceiptHandle: m.ReceiptHandle})
		}
	}
}

// Kafka through sarama: the key from the record's topic, partition and offset (fmt is
// imported by the fix).
type ledger struct{}

func (ledger) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (ledger) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (ledger) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for {
		select {
		case msg, ok := <-claim.Messages():
			if !ok {
				return nil
			}
			key := uuid.New().String() // related "handlers.go:93: message handler" "handlers.go:100: sent as header \"Idempotency-Key\" via post" // want `uuid\.New makes a new idempotency key per run of the Kafka handler loop; derive it from the topic, partition and offset`
			if err := post(sess.Context(), "https://ledger.example.com/v1/entries", msg.Value, key); err != nil {
				return err
			}
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}

// NATS JetStream: reading the sequence returns an error too; no fix, the message says what
// to use.
func consume(cons jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return cons.Consume(func(msg jetstream.Msg) {
		if err := post(context.Background(), "https://ledger.example.com/v1/entries", msg.Data(), uuid.NewString()); err != nil { // related "handlers.go:113: message handler" "handlers.go:114: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run; derive it from the message's stream sequence`
			_ = msg.Nak()
			return
		}
		_ = msg.Ack()
	})
}

// RabbitMQ with requeue: the publisher's MessageId may be empty; no fix.
func requeue(ch *amqp.Channel) error {
	msgs, err := ch.Consume("payments", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		if err := post(context.Background(), "https://ledger.example.com/v1/entries", d.Body, uuid.NewString()); err != nil { // related "handlers.go:128: message handler" "handlers.go:129: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run; derive it from the publisher's message ID`
			_ = d.Nack(false, true)
			continue
		}
		_ = d.Ack(false)
	}
	return nil
}

// Not reported: a RabbitMQ consumer that never requeues.
func noRequeue(ch *amqp.Channel) error {
	msgs, err := ch.Consume("audit", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		_ = post(context.Background(), "https://audit.example.com/v1/events", d.Body, uuid.NewString())
		_ = d.Reject(false)
	}
	return nil
}

// asynq: the key from the task ID.
func handleInvoice(ctx context.Context, t *asynq.Task) error {
	return post(ctx, "https://billing.example.com/v1/invoices", t.Payload(), uuid.NewString()) // related "handlers.go:152: message handler" "handlers.go:153: sent as header \"Idempotency-Key\" via post" // want `uuid\.NewString makes a new idempotency key per run of the asynq task handler handleInvoice; derive it from the task ID`
}
