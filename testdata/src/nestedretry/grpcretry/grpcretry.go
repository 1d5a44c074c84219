// Package grpcretry: a vector store client whose connection retries every unary call through
// go-grpc-middleware's retry interceptor. A loop of the client's own that retries the same calls
// multiplies the attempts; one around a connection whose interceptor makes one attempt does not.
package grpcretry

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"time"

	"example.com/greeterpb"
	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

type Config struct {
	Address string
	Retries uint
}

func (c *Config) dialOptions() []grpc.DialOption {
	opts := []grpc.DialOption{grpc.WithInsecure()}
	return append(opts, grpc.WithChainUnaryInterceptor(grpc_retry.UnaryClientInterceptor(
		grpc_retry.WithMax(4),
		grpc_retry.WithCodes(codes.Unavailable, codes.ResourceExhausted),
	)))
}

type Client struct {
	conn    *grpc.ClientConn
	service greeterpb.GreeterClient
}

func (c *Client) connect(ctx context.Context, addr string, opts ...grpc.DialOption) error {
	conn, err := grpc.DialContext(ctx, addr, opts...)
	if err != nil {
		return err
	}
	c.conn = conn
	c.service = greeterpb.NewGreeterClient(conn)
	return nil
}

func New(ctx context.Context, cfg *Config) (*Client, error) {
	c := &Client{}
	if err := c.connect(ctx, cfg.Address, cfg.dialOptions()...); err != nil {
		return nil, fmt.Errorf("connect %s: %w", cfg.Address, err)
	}
	return c, nil
}

// ---- Reported: the loop goes round on any error, and each round's call is retried by the interceptor ----

func (c *Client) Flush(ctx context.Context, name string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		_, err = c.service.SayHello(ctx, &greeterpb.HelloRequest{}) // related "grpcretry.go:60: outer retry loop" // want `5 attempts around greeterpb\.GreeterClient\.SayHello, which makes 4 each: up to 20 calls; keep one layer`
		if err == nil {
			return nil
		}
		log.Printf("flush %s: attempt %d: %v", name, attempt, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return errors.Join(errors.New("flush failed"), err)
}

// ---- Not reported: the interceptor of this connection makes one attempt (no WithMax) ----

type plainClient struct {
	service greeterpb.GreeterClient
}

func newPlain(addr string) (*plainClient, error) {
	conn, err := grpc.NewClient(addr, grpc.WithInsecure(),
		grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(grpc_retry.WithCodes(codes.Unavailable))))
	if err != nil {
		return nil, err
	}
	return &plainClient{service: greeterpb.NewGreeterClient(conn)}, nil
}

func (c *plainClient) Flush(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if _, err = c.service.SayHello(ctx, &greeterpb.HelloRequest{}); err == nil {
			return nil
		}
		time.Sleep(rand.N(time.Second))
	}
	return err
}
