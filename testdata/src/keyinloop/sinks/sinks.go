package sinks

import (
	"context"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/google/uuid"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"google.golang.org/grpc/metadata"
)

type paymentsClient interface {
	Create(ctx context.Context, amount int64) error
}

// ---- Reported ----

func grpcAppend(ctx context.Context, c paymentsClient) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		key := uuid.NewString() // related "sinks.go:23: retry loop" "sinks.go:25: sent as gRPC metadata \"x-idempotency-key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		octx := metadata.AppendToOutgoingContext(ctx, "x-idempotency-key", key)
		if err = c.Create(octx, 100); err == nil {
			return nil
		}
	}
	return err
}

func grpcMDSet(ctx context.Context, c paymentsClient) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		md := metadata.MD{}
		md.Set("idempotency-key", uuid.NewString()) // related "sinks.go:35: retry loop" "sinks.go:37: sent as gRPC metadata \"idempotency-key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		if err = c.Create(metadata.NewOutgoingContext(ctx, md), 100); err == nil {
			return nil
		}
	}
	return err
}

func stripeParams() error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
		params.IdempotencyKey = stripe.String(uuid.NewString()) // related "sinks.go:47: retry loop" "sinks.go:49: sent as field IdempotencyKey" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		if _, err = paymentintent.New(params); err == nil {
			return nil
		}
	}
	return err
}

func headerLiteral(req *http.Request) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req.Header = http.Header{"Idempotency-Key": {uuid.NewString()}} // related "sinks.go:59: retry loop" "sinks.go:60: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		if _, err = http.DefaultClient.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// ---- Not reported ----

// Trace and request ids are per attempt by design.
func traceMetadata(ctx context.Context, c paymentsClient, key string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		md := metadata.Pairs("idempotency-key", key, "x-request-id", uuid.NewString())
		if err = c.Create(metadata.NewOutgoingContext(ctx, md), 100); err == nil {
			return nil
		}
	}
	return err
}

// The stripe key is filled in once when missing.
func stripeOnce(params *stripe.PaymentIntentParams) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if params.IdempotencyKey == nil {
			params.IdempotencyKey = stripe.String(uuid.NewString())
		}
		if _, err = paymentintent.New(params); err == nil {
			return nil
		}
	}
	return err
}

// The AWS SDK's own retries reuse the token; one call, no loop.
func awsOnce(ctx context.Context, c *ec2.Client) error {
	_, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ClientToken: aws.String(uuid.NewString())})
	return err
}
