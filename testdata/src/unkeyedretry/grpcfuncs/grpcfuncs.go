// Package grpcfuncs holds gRPC methods and functions marked non-idempotent with
// -unkeyedretry.grpc and -unkeyedretry.funcs, retried with and without a key.
package grpcfuncs

import (
	"context"
	"fmt"
	"log"
	"time"

	"example.com/paymentspb"
	"example.com/queue"
	retrygo "github.com/avast/retry-go/v4"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

type Service struct {
	payments paymentspb.PaymentsClient
	conn     *grpc.ClientConn
	producer *queue.Producer
}

// ---- Reported ----

func (s *Service) Charge(ctx context.Context, amount int64) (*paymentspb.Charge, error) {
	req := &paymentspb.ChargeRequest{Amount: amount, Currency: "EUR"}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		ch, err := s.payments.Charge(cctx, req) // want `gRPC payments.v1.Payments/Charge is retried with(out an| no) idempotency key`
		cancel()
		if err == nil {
			return ch, nil
		}
		lastErr = err
		log.Printf("charge attempt %d: %v", attempt, err)
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return nil, fmt.Errorf("charge: %w", lastErr)
}

func (s *Service) Announce(ctx context.Context, order string) error {
	msg := &queue.Message{Topic: "orders", Body: []byte(order)}
	return retrygo.Do(func() error {
		return s.producer.Publish(ctx, msg) // want `Producer.Publish is retried with(out an| no) idempotency key`
	}, retrygo.Attempts(5), retrygo.Context(ctx))
}

func (s *Service) Refund(ctx context.Context, charge string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.conn.Invoke(ctx, "/legacy.Billing/Refund", charge, nil); err == nil { // want `gRPC legacy.Billing/Refund is retried with(out an| no) idempotency key`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// ---- Not reported ----

// ChargeKeyed puts the key in the request message.
func (s *Service) ChargeKeyed(ctx context.Context, amount int64, key string) (*paymentspb.Charge, error) {
	req := &paymentspb.ChargeRequest{Amount: amount, Currency: "EUR", IdempotencyKey: key}
	for attempt := 0; ; attempt++ {
		ch, err := s.payments.Charge(ctx, req)
		if err == nil || attempt == 2 {
			return ch, err
		}
		time.Sleep(time.Second)
	}
}

// ChargeMetadata sends the key as gRPC metadata.
func (s *Service) ChargeMetadata(ctx context.Context, amount int64, order string) (*paymentspb.Charge, error) {
	ctx = metadata.AppendToOutgoingContext(ctx, "idempotency-key", "charge-"+order)
	for attempt := 0; ; attempt++ {
		ch, err := s.payments.Charge(ctx, &paymentspb.ChargeRequest{Amount: amount})
		if err == nil || attempt == 2 {
			return ch, err
		}
		time.Sleep(time.Second)
	}
}

// Lookup retries a method that is not marked.
func (s *Service) Lookup(ctx context.Context, id string) (*paymentspb.Charge, error) {
	for attempt := 0; ; attempt++ {
		ch, err := s.payments.GetCharge(ctx, &paymentspb.GetChargeRequest{ID: id})
		if err == nil || attempt == 2 {
			return ch, err
		}
		time.Sleep(time.Second)
	}
}

// Drain retries a function that is not marked.
func (s *Service) Drain(ctx context.Context) error {
	return retrygo.Do(func() error { return s.producer.Flush(ctx) }, retrygo.Attempts(3))
}
