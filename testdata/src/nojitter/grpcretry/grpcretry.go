// Package grpcretry: gRPC connections whose retry interceptor waits between attempts as its
// options say: go-grpc-middleware's default is a jittered linear backoff; BackoffLinear and a
// function of the attempt alone are the same for every client.
package grpcretry

import (
	"context"
	"math"
	"time"

	"example.com/greeterpb"
	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

// ---- Reported ----

func openExponential(ctx context.Context, addr string) (greeterpb.GreeterClient, error) {
	conn, err := grpc.NewClient(addr, grpc.WithInsecure(),
		grpc.WithChainUnaryInterceptor(grpc_retry.UnaryClientInterceptor(
			grpc_retry.WithMax(6),
			grpc_retry.WithBackoff(func(attempt uint) time.Duration { // related "grpcretry.go:32: self-retrying client call" // want `the gRPC retry interceptor backs off without jitter: clients that failed together retry in waves; add jitter`
				return 60 * time.Millisecond * time.Duration(math.Pow(3, float64(attempt)))
			}),
			grpc_retry.WithCodes(codes.Unavailable, codes.ResourceExhausted),
		)))
	if err != nil {
		return nil, err
	}
	c := greeterpb.NewGreeterClient(conn)
	if _, err := c.SayHello(ctx, &greeterpb.HelloRequest{}); err != nil {
		return nil, err
	}
	return c, nil
}

func openLinear(ctx context.Context, addr string) (greeterpb.GreeterClient, error) {
	conn, err := grpc.NewClient(addr, grpc.WithInsecure(),
		grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(3), grpc_retry.WithBackoff(grpc_retry.BackoffLinear(100*time.Millisecond))))) // related "grpcretry.go:45: self-retrying client call" // want `the gRPC retry interceptor waits a fixed delay: clients that failed together retry together; add jitter`
	if err != nil {
		return nil, err
	}
	c := greeterpb.NewGreeterClient(conn)
	if _, err := c.SayHello(ctx, &greeterpb.HelloRequest{}); err != nil {
		return nil, err
	}
	return c, nil
}

// ---- Not reported ----

// The interceptor's default backoff is jittered.
func openDefault(ctx context.Context, addr string) (greeterpb.GreeterClient, error) {
	conn, err := grpc.NewClient(addr, grpc.WithInsecure(),
		grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(5))))
	if err != nil {
		return nil, err
	}
	c := greeterpb.NewGreeterClient(conn)
	if _, err := c.SayHello(ctx, &greeterpb.HelloRequest{}); err != nil {
		return nil, err
	}
	return c, nil
}

// Without a count the interceptor does not retry at all.
func openNoRetry(ctx context.Context, addr string) (greeterpb.GreeterClient, error) {
	conn, err := grpc.NewClient(addr, grpc.WithInsecure(),
		grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(grpc_retry.WithBackoff(grpc_retry.BackoffLinear(time.Second)))))
	if err != nil {
		return nil, err
	}
	c := greeterpb.NewGreeterClient(conn)
	if _, err := c.SayHello(ctx, &greeterpb.HelloRequest{}); err != nil {
		return nil, err
	}
	return c, nil
}
