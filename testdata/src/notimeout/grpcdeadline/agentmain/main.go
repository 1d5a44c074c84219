// Command agentmain dials the control plane with a retry interceptor that bounds every attempt
// and hands the connection to controlplane.Init: its own calls through controlplane.Client
// have a deadline.
package main

import (
	"context"
	"flag"
	"log"
	"time"

	"example.com/greeterpb"
	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"notimeout/grpcdeadline/controlplane"
)

func dial(ctx context.Context, endpoint string) (*grpc.ClientConn, error) {
	return grpc.NewClient(endpoint,
		grpc.WithInsecure(),
		grpc.WithChainUnaryInterceptor(grpc_retry.UnaryClientInterceptor(
			grpc_retry.WithMax(3),
			grpc_retry.WithCodes(codes.Unavailable, codes.DeadlineExceeded),
			grpc_retry.WithPerRetryTimeout(time.Minute),
		)),
	)
}

// ---- Not reported: the stub controlplane keeps is made from this connection ----

func main() {
	endpoint := flag.String("endpoint", "localhost:443", "control plane")
	task := flag.String("task", "", "task id")
	flag.Parse()
	ctx := context.Background()
	var conn *grpc.ClientConn
	var err error
	for attempt := range 3 {
		if conn, err = dial(ctx, *endpoint); err == nil {
			break
		}
		log.Printf("dial attempt %d: %v", attempt, err)
	}
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	controlplane.Init(conn, *task)
	defer reportFinished()
	defer reportSignal(context.Background(), "exit")
	if _, err := controlplane.Client.SayHello(context.Background(), &greeterpb.HelloRequest{}); err != nil {
		log.Fatalf("register %s: %v", controlplane.TaskID, err)
	}
}

func reportFinished() {
	if _, err := controlplane.Client.SayHello(context.Background(), &greeterpb.HelloRequest{}); err != nil {
		log.Printf("report finished: %v", err)
	}
}

// The caller's context reaches the call; the connection bounds it all the same.
func reportSignal(ctx context.Context, sig string) {
	if _, err := controlplane.Client.SayHello(ctx, &greeterpb.HelloRequest{}); err != nil {
		log.Printf("report signal %s: %v", sig, err)
	}
}
