// Package grpcdeadline: an agent that talks to its control plane over one gRPC connection. The
// connection's unary interceptors decide whether a call made with a context that has no
// deadline can hang: go-grpc-middleware's retry interceptor with a per-retry timeout (and a
// retry count, without which it makes one plain call) and its timeout interceptor bound every
// unary call on the connection; other interceptors do not.
package grpcdeadline

import (
	"context"
	"errors"
	"log"
	"os"
	"time"

	"example.com/greeterpb"
	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	retryv2 "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

var controlPlane greeterpb.GreeterClient

func metadataInterceptor(md metadata.MD) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(metadata.NewOutgoingContext(ctx, md), method, req, reply, cc, opts...)
	}
}

func dialControlPlane(endpoint string, md metadata.MD) (*grpc.ClientConn, error) {
	retryCodes := []codes.Code{codes.Unavailable, codes.Internal, codes.ResourceExhausted}
	return grpc.NewClient(endpoint,
		grpc.WithInsecure(),
		grpc.WithChainUnaryInterceptor(
			grpc_retry.UnaryClientInterceptor(
				grpc_retry.WithMax(3),
				grpc_retry.WithCodes(retryCodes...),
				grpc_retry.WithPerRetryTimeout(30*time.Second),
			),
			metadataInterceptor(md),
		),
	)
}

// ---- Not reported: every unary call on the connection gets a 30 s deadline per attempt ----

func run(endpoint, token string) error {
	conn, err := dialControlPlane(endpoint, metadata.New(map[string]string{"authorization": token}))
	if err != nil {
		return err
	}
	defer conn.Close()
	controlPlane = greeterpb.NewGreeterClient(conn)
	go heartbeat()
	reply, err := controlPlane.SayHello(context.Background(), &greeterpb.HelloRequest{})
	if err != nil {
		return err
	}
	log.Printf("registered: %v", reply)
	return nil
}

func heartbeat() {
	for {
		if _, err := controlPlane.SayHello(context.Background(), &greeterpb.HelloRequest{}); err != nil {
			log.Printf("heartbeat failed: %v", err)
		}
		time.Sleep(30 * time.Second)
	}
}

type reporter struct {
	client greeterpb.GreeterClient
}

func newReporter(endpoint string) (*reporter, error) {
	opts := []retryv2.CallOption{retryv2.WithMax(5), retryv2.WithPerRetryTimeout(10 * time.Second)}
	conn, err := grpc.Dial(endpoint, grpc.WithInsecure(), grpc.WithUnaryInterceptor(retryv2.UnaryClientInterceptor(opts...)))
	if err != nil {
		return nil, err
	}
	return &reporter{client: greeterpb.NewGreeterClient(conn)}, nil
}

func (r *reporter) reportSignal(sig os.Signal) {
	if _, err := r.client.SayHello(context.Background(), &greeterpb.HelloRequest{}); err != nil {
		log.Printf("report %v: %v", sig, err)
	}
}

func newTimedClient(endpoint string) (greeterpb.GreeterClient, error) {
	conn, err := grpc.NewClient(endpoint, grpc.WithInsecure(), grpc.WithUnaryInterceptor(timeout.UnaryClientInterceptor(5*time.Second)))
	if err != nil {
		return nil, err
	}
	return greeterpb.NewGreeterClient(conn), nil
}

func greetTimed(endpoint string) error {
	c, err := newTimedClient(endpoint)
	if err != nil {
		return err
	}
	_, err = c.SayHello(context.Background(), &greeterpb.HelloRequest{})
	return err
}

// ---- Reported: interceptors that retry or add metadata but give no deadline ----

// WithPerRetryTimeout without WithMax: the interceptor retries nothing and passes the call
// through as it is, with the caller's context.
func greetPassThrough(endpoint string) error {
	conn, err := grpc.NewClient(endpoint, grpc.WithInsecure(),
		grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(grpc_retry.WithPerRetryTimeout(time.Second))))
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = greeterpb.NewGreeterClient(conn).SayHello(context.Background(), &greeterpb.HelloRequest{}) // related "agent.go:121: context.Background() has no deadline" // want `GreeterClient\.SayHello's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	return err
}

// Retries without a per-retry timeout: each attempt can hang.
func greetRetrying(endpoint string) error {
	conn, err := grpc.NewClient(endpoint, grpc.WithInsecure(),
		grpc.WithChainUnaryInterceptor(grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(3)), metadataInterceptor(nil)))
	if err != nil {
		return err
	}
	defer conn.Close()
	c := greeterpb.NewGreeterClient(conn)
	if _, err := c.SayHello(context.Background(), &greeterpb.HelloRequest{}); err != nil { // related "agent.go:134: context.Background() has no deadline" // want `GreeterClient\.SayHello's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
		return errors.Join(errors.New("greet"), err)
	}
	return nil
}

// Two connections may reach the call; one has no deadline.
func greetEither(endpoint string, fast bool) error {
	var conn *grpc.ClientConn
	var err error
	if fast {
		conn, err = grpc.NewClient(endpoint, grpc.WithInsecure(), grpc.WithUnaryInterceptor(timeout.UnaryClientInterceptor(time.Second)))
	} else {
		conn, err = grpc.NewClient(endpoint, grpc.WithInsecure())
	}
	if err != nil {
		return err
	}
	_, err = greeterpb.NewGreeterClient(conn).SayHello(context.Background(), &greeterpb.HelloRequest{}) // related "agent.go:152: context.Background() has no deadline" // want `GreeterClient\.SayHello's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	return err
}

// A database client whose configuration builds the dial options: the interceptor is found
// through the method that returns them.
type dbConfig struct {
	Address    string
	DialOpts   []grpc.DialOption
	PerAttempt time.Duration
}

func (c *dbConfig) dialOptions() []grpc.DialOption {
	var opts []grpc.DialOption
	opts = append(opts, grpc.WithInsecure())
	if c.DialOpts != nil {
		opts = append(opts, c.DialOpts...)
	}
	opts = append(opts, grpc.WithChainUnaryInterceptor(
		grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(6), grpc_retry.WithPerRetryTimeout(c.PerAttempt)),
		metadataInterceptor(nil),
	))
	return opts
}

type dbClient struct {
	conn    *grpc.ClientConn
	service greeterpb.GreeterClient
}

func connectDB(ctx context.Context, cfg *dbConfig) (*dbClient, error) {
	conn, err := grpc.DialContext(ctx, cfg.Address, cfg.dialOptions()...)
	if err != nil {
		return nil, err
	}
	return &dbClient{conn: conn, service: greeterpb.NewGreeterClient(conn)}, nil
}

// ---- Not reported: the dial options the configuration builds bound each attempt ----

func (c *dbClient) flush() error {
	_, err := c.service.SayHello(context.Background(), &greeterpb.HelloRequest{})
	return err
}
