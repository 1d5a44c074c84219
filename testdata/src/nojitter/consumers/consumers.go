// Package consumers holds message consumers that hand a failed message back to the broker:
// at once (the broker's redelivery is then a retry with no pause), after a delay, only once,
// or while shutting down.
package consumers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
)

type Order struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
}

type Store interface {
	SaveOrder(ctx context.Context, o Order) error
}

type Metrics interface {
	Inc(name string, tags ...string)
}

type Worker struct {
	store   Store
	metrics Metrics
	logger  *log.Logger
	failed  chan Order
}

func (w *Worker) decode(data []byte) (Order, error) {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return Order{}, fmt.Errorf("decode order: %w", err)
	}
	if o.ID == "" {
		return Order{}, errors.New("order without id")
	}
	return o, nil
}

// ConsumeOrders naks a message whose saving failed: JetStream delivers it again at once, and
// a message that keeps failing loops with no pause.
func (w *Worker) ConsumeOrders(ctx context.Context, cons jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return cons.Consume(func(msg jetstream.Msg) {
		o, err := w.decode(msg.Data())
		if err != nil {
			w.logger.Printf("dropping malformed order on %s: %v", msg.Subject(), err)
			_ = msg.Term()
			return
		}
		if err := w.store.SaveOrder(ctx, o); err != nil {
			w.metrics.Inc("orders.failed", "subject:"+msg.Subject())
			w.logger.Printf("save order %s: %v", o.ID, err)
			_ = msg.Nak() // want `failed message handed back at once: JetStream redelivers it with no pause, looping while it fails; use NakWithDelay`
			return
		}
		w.metrics.Inc("orders.saved")
		_ = msg.Ack()
	})
}

// ConsumeOrdersPaced hands the message back after a delay that grows with its deliveries.
func (w *Worker) ConsumeOrdersPaced(ctx context.Context, cons jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return cons.Consume(func(msg jetstream.Msg) {
		o, err := w.decode(msg.Data())
		if err != nil {
			_ = msg.Term()
			return
		}
		if err := w.store.SaveOrder(ctx, o); err != nil {
			delay := 5 * time.Second
			if md, mdErr := msg.Metadata(); mdErr == nil {
				delay = time.Duration(md.NumDelivered) * 5 * time.Second
			}
			_ = msg.NakWithDelay(delay)
			return
		}
		_ = msg.Ack()
	})
}

// ConsumeUntilShutdown hands back what it has not handled when its context ends, so that
// another consumer takes it at once: not a retry.
func (w *Worker) ConsumeUntilShutdown(ctx context.Context, msgs <-chan jetstream.Msg) {
	for {
		select {
		case msg := <-msgs:
			if ctx.Err() != nil {
				_ = msg.Nak()
				return
			}
			o, err := w.decode(msg.Data())
			if err != nil {
				_ = msg.Term()
				continue
			}
			if err := w.store.SaveOrder(ctx, o); err != nil {
				if ctx.Err() != nil {
					_ = msg.Nak() // the save failed because we are stopping
					return
				}
				select {
				case <-ctx.Done():
					_ = msg.Nak()
					return
				case w.failed <- o:
				}
				_ = msg.NakWithDelay(10 * time.Second)
				continue
			}
			_ = msg.Ack()
		case <-ctx.Done():
			return
		}
	}
}

// PullOrders fetches batches through the legacy API and hands a batch its handler refused
// back at once: the outcome is the handler's bool, the acks on its other side say which side
// failed.
func (w *Worker) PullOrders(ctx context.Context, js nats.JetStreamContext, handle func(context.Context, []*nats.Msg) bool) error {
	sub, err := js.PullSubscribe("orders.*", "orders-durable")
	if err != nil {
		return fmt.Errorf("pull subscribe: %w", err)
	}
	defer sub.Unsubscribe()
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		msgs, err := sub.Fetch(16, nats.Context(ctx))
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				continue
			}
			return fmt.Errorf("fetch: %w", err)
		}
		for _, msg := range msgs {
			if err := msg.InProgress(nats.Context(ctx)); err != nil {
				w.logger.Printf("in progress %s: %v", msg.Subject, err)
			}
		}
		if handle(ctx, msgs) {
			for _, msg := range msgs {
				if err := msg.AckSync(nats.Context(ctx)); err != nil {
					w.logger.Printf("ack %s: %v", msg.Subject, err)
				}
			}
		} else {
			for _, msg := range msgs {
				if err := msg.Nak(nats.Context(ctx)); err != nil { // want `failed message handed back at once: JetStream redelivers it with no pause, looping while it fails; use NakWithDelay`
					w.logger.Printf("nak %s: %v", msg.Subject, err)
				}
			}
		}
	}
}

// RunQueue requeues a delivery whose handling failed: RabbitMQ puts it back at the head of
// the queue, and a message that keeps failing loops with no pause.
func (w *Worker) RunQueue(ctx context.Context, ch *amqp.Channel) error {
	deliveries, err := ch.ConsumeWithContext(ctx, "orders", "orders-worker", false, false, false, false, nil)
	if err != nil {
		return fmt.Errorf("consume: %w", err)
	}
	for d := range deliveries {
		o, err := w.decode(d.Body)
		if err != nil {
			w.logger.Printf("reject malformed %s: %v", d.MessageId, err)
			_ = d.Reject(false)
			continue
		}
		if err := w.store.SaveOrder(ctx, o); err != nil {
			w.metrics.Inc("orders.failed")
			_ = d.Nack(false, true) // want `failed delivery requeued at once: RabbitMQ redelivers it with no pause, looping while it fails; dead-letter it`
			continue
		}
		_ = d.Ack(false)
	}
	return nil
}

// RunQueueOnce requeues a failed delivery only the first time (Redelivered is set on the
// second), then dead-letters it; and a variant that never requeues.
func (w *Worker) RunQueueOnce(ctx context.Context, ch *amqp.Channel) error {
	deliveries, err := ch.ConsumeWithContext(ctx, "orders", "orders-worker", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range deliveries {
		o, err := w.decode(d.Body)
		if err != nil {
			_ = d.Nack(false, false)
			continue
		}
		if err := w.store.SaveOrder(ctx, o); err != nil {
			_ = d.Nack(false, !d.Redelivered)
			continue
		}
		_ = d.Ack(false)
	}
	return nil
}

// RunQueuePaced waits before handing a failed delivery back on the channel.
func (w *Worker) RunQueuePaced(ctx context.Context, ch *amqp.Channel, pause time.Duration) error {
	deliveries, err := ch.ConsumeWithContext(ctx, "orders", "orders-worker", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case d, ok := <-deliveries:
			if !ok {
				return nil
			}
			o, err := w.decode(d.Body)
			if err != nil {
				_ = ch.Reject(d.DeliveryTag, false)
				continue
			}
			if err := w.store.SaveOrder(ctx, o); err != nil {
				w.logger.Printf("save %s: %v; requeue in %s", o.ID, err, pause)
				time.Sleep(pause)
				_ = ch.Nack(d.DeliveryTag, false, true)
				continue
			}
			_ = ch.Ack(d.DeliveryTag, false)
		}
	}
}

// RunChannel hands failed deliveries back on the channel at once.
func (w *Worker) RunChannel(ctx context.Context, ch *amqp.Channel) error {
	deliveries, err := ch.ConsumeWithContext(ctx, "orders", "orders-worker", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range deliveries {
		o, err := w.decode(d.Body)
		if err == nil {
			err = w.store.SaveOrder(ctx, o)
		}
		if err != nil {
			_ = ch.Nack(d.DeliveryTag, false, true) // want `failed delivery requeued at once: RabbitMQ redelivers it`
			continue
		}
		_ = ch.Ack(d.DeliveryTag, false)
	}
	return nil
}

// Action is what a handler asks the consumer library to do with a delivery.
type Action int

const (
	Ack Action = iota
	NackDiscard
	NackRequeue
)

// Serve is a consumer library's loop: it does with each delivery what its user's handler asks,
// requeue included. The choice is the handler's, not this code's.
func Serve(deliveries <-chan amqp.Delivery, handler func(amqp.Delivery) Action, logger *log.Logger) {
	for d := range deliveries {
		switch handler(d) {
		case Ack:
			if err := d.Ack(false); err != nil {
				logger.Printf("ack: %v", err)
			}
		case NackDiscard:
			if err := d.Nack(false, false); err != nil {
				logger.Printf("nack: %v", err)
			}
		case NackRequeue:
			if err := d.Nack(false, true); err != nil {
				logger.Printf("nack: %v", err)
			}
		}
	}
}
