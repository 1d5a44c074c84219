// Package handlers consumes messages that brokers deliver again when handling fails: the
// handler function, or the body of the loop over deliveries, is one attempt.
package handlers

import (
	"context"
	"errors"
	"log"
	"time"

	pubsubv1 "cloud.google.com/go/pubsub"
	"cloud.google.com/go/pubsub/v2"
	"github.com/IBM/sarama"
	machinery "github.com/RichardKnop/machinery/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/hibiken/asynq"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
	kafka "github.com/segmentio/kafka-go"
)

var errPoison = errors.New("poison message")

func process(ctx context.Context, body []byte) error { return nil }

// Pub/Sub v2 and v1: the callback passed to Receive.
func receive(ctx context.Context, c *pubsub.Client, c1 *pubsubv1.Client) error {
	err := c.Subscriber("orders").Receive(ctx, func(ctx context.Context, m *pubsub.Message) { // want `message handler \(Pub/Sub\): attempts=unbounded wait=unknown deadline=unknown`
		if err := process(ctx, m.Data); err != nil {
			log.Printf("message %s: %v", m.ID, err)
			m.Nack()
			return
		}
		m.Ack()
	})
	if err != nil {
		return err
	}
	return c1.Subscription("legacy").Receive(ctx, handleLegacy)
}

// handleLegacy has the callback's shape: a handler wherever it is passed to Receive.
func handleLegacy(ctx context.Context, m *pubsubv1.Message) { // want `message handler \(Pub/Sub\): attempts=unbounded wait=unknown deadline=unknown` handleLegacy:`run again by Pub/Sub as a message handler`
	if process(ctx, m.Data) != nil {
		m.Nack()
		return
	}
	m.Ack()
}

// SQS: the loop over received messages; a message not deleted comes back.
func poll(ctx context.Context, c *sqs.Client, queue string) { // want poll:`retries: self-retrying client call`
	for ctx.Err() == nil {
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(queue), MaxNumberOfMessages: 10, WaitTimeSeconds: 20}) // want `self-retrying client call \(github.com/aws/aws-sdk-go-v2/service/sqs.Client.ReceiveMessage\)`
		if err != nil {
			log.Printf("receive: %v", err)
			time.Sleep(time.Second)
			continue
		}
		for _, m := range out.Messages { // want `message handler \(SQS\): attempts=unbounded wait=fixed deadline=unknown`
			if err := process(ctx, []byte(aws.ToString(m.Body))); err != nil {
				log.Printf("message %s: %v", aws.ToString(m.MessageId), err)
				continue
			}
			if _, err := c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(queue), ReceiptHandle: m.ReceiptHandle}); err != nil { // want `self-retrying client call \(github.com/aws/aws-sdk-go-v2/service/sqs.Client.DeleteMessage\)`
				log.Printf("delete %s: %v", aws.ToString(m.MessageId), err)
			}
		}
	}
}

// Kafka through sarama: the loop over a claim's messages, in a select or a range.
type consumer struct{ ready chan bool }

func (c *consumer) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (c *consumer) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (c *consumer) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for { // want `message handler \(Kafka\): attempts=unbounded wait=unknown deadline=unknown`
		select {
		case msg, ok := <-claim.Messages():
			if !ok {
				return nil
			}
			if err := process(sess.Context(), msg.Value); err != nil {
				return err
			}
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}

type ranger struct{}

func (ranger) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() { // want `message handler \(Kafka\): attempts=unbounded`
		if err := process(sess.Context(), msg.Value); err != nil {
			return err
		}
		sess.MarkMessage(msg, "")
	}
	return nil
}

// kafka-go: fetched and committed after processing.
func fetch(ctx context.Context, r *kafka.Reader) error {
	for { // want `message handler \(Kafka\): attempts=unbounded`
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := process(ctx, m.Value); err != nil {
			return err
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// ReadMessage commits first: at most once, not a handler.
func read(ctx context.Context, r *kafka.Reader) error {
	for {
		m, err := r.ReadMessage(ctx)
		if err != nil {
			return err
		}
		_ = process(ctx, m.Value)
	}
}

// NATS JetStream: a function taking a message.
func consume(cons jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return cons.Consume(func(msg jetstream.Msg) { // want `message handler \(JetStream\): attempts=unbounded wait=fixed deadline=unknown`
		if err := process(context.Background(), msg.Data()); err != nil {
			_ = msg.Nak()
			return
		}
		_ = msg.Ack()
	})
}

// RabbitMQ: redelivered only when nacked with requeue.
func requeue(ch *amqp.Channel) error {
	msgs, err := ch.Consume("orders", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs { // want `message handler \(RabbitMQ\): attempts=unbounded wait=none deadline=none`
		if err := process(context.Background(), d.Body); err != nil {
			_ = d.Nack(false, !errors.Is(err, errPoison))
			continue
		}
		_ = d.Ack(false)
	}
	return nil
}

// The requeue in a helper of the package (as watermill-amqp's nackMsg): the loop and the
// helper, which takes the delivery and requeues it, are handlers.
type subscription struct{ noRequeue bool }

func (s *subscription) nack(d amqp.Delivery) error { // want `message handler \(RabbitMQ\): attempts=unbounded` nack:`run again by RabbitMQ as a message handler`
	return d.Nack(false, !s.noRequeue)
}

func (s *subscription) consume(msgs <-chan amqp.Delivery) {
	for { // want `message handler \(RabbitMQ\): attempts=unbounded wait=none deadline=none`
		select {
		case d := <-msgs:
			if err := process(context.Background(), d.Body); err != nil {
				_ = s.nack(d)
				continue
			}
			_ = d.Ack(false)
		}
	}
}

func deadLetter(ch *amqp.Channel) error {
	msgs, err := ch.Consume("audit", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		if err := process(context.Background(), d.Body); err != nil {
			_ = d.Nack(false, false)
			continue
		}
		_ = d.Ack(false)
	}
	return nil
}

// asynq: a Handler's ProcessTask and a function of its shape.
type emailProcessor struct{}

func (p *emailProcessor) ProcessTask(ctx context.Context, t *asynq.Task) error { // want `message handler \(asynq\): attempts=26 wait=jittered deadline=unknown` ProcessTask:`run again by asynq as a message handler`
	return process(ctx, t.Payload())
}

func handleWelcome(ctx context.Context, t *asynq.Task) error { // want `message handler \(asynq\): attempts=26` handleWelcome:`run again by asynq as a message handler`
	return process(ctx, t.Payload())
}

func mux() *asynq.ServeMux {
	m := asynq.NewServeMux()
	m.Handle("email:deliver", &emailProcessor{})
	m.HandleFunc("email:welcome", handleWelcome)
	return m
}

// machinery: registered tasks; the sender's signature says how often they are retried.
func Add(ctx context.Context, a, b int64) (int64, error) { return a + b, nil } // want `message handler \(machinery\): attempts=unknown wait=backoff deadline=unknown` Add:`run again by machinery as a message handler`

func Notify(ctx context.Context, user string) error { return nil } // want `message handler \(machinery\): attempts=unknown` Notify:`run again by machinery as a message handler`

func register(server *machinery.Server) error {
	if err := server.RegisterTask("add", Add); err != nil {
		return err
	}
	return server.RegisterTasks(map[string]interface{}{"notify": Notify})
}
