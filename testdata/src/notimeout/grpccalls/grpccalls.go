// Package grpccalls: gRPC calls through generated stubs and connections.
package grpccalls

import (
	"context"
	"time"

	"example.com/greeterpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// ---- Reported ----

func hello(conn *grpc.ClientConn) {
	c := greeterpb.NewGreeterClient(conn)
	c.SayHello(context.Background(), &greeterpb.HelloRequest{}) // related "grpccalls.go:17: context.Background() has no deadline" // want `GreeterClient\.SayHello's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
}

func helloMetadata(c greeterpb.GreeterClient) {
	ctx := metadata.AppendToOutgoingContext(context.TODO(), "k", "v")
	c.SayHello(ctx, &greeterpb.HelloRequest{}) // related "grpccalls.go:21: context.TODO() has no deadline" // want `GreeterClient\.SayHello's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
}

func invoke(conn *grpc.ClientConn) {
	var reply greeterpb.HelloReply
	conn.Invoke(context.Background(), "/greeter.Greeter/SayHello", &greeterpb.HelloRequest{}, &reply) // related "grpccalls.go:27: context.Background() has no deadline" // want `ClientConn\.Invoke's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
}

func invokeInterface(cc grpc.ClientConnInterface) {
	var reply greeterpb.HelloReply
	cc.Invoke(context.Background(), "/greeter.Greeter/SayHello", nil, &reply) // related "grpccalls.go:32: context.Background() has no deadline" // want `ClientConnInterface\.Invoke's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
}

func dialBlock(addr string) (*grpc.ClientConn, error) {
	return grpc.Dial(addr, grpc.WithInsecure(), grpc.WithBlock()) // want `grpc\.Dial with WithBlock waits with no deadline, so an unreachable server hangs this call; use grpc\.NewClient`
}

func dialContextBlock(addr string) {
	opts := []grpc.DialOption{grpc.WithBlock()}
	grpc.DialContext(context.Background(), addr, opts...) // related "grpccalls.go:41: context.Background() has no deadline" // want `grpc\.DialContext with WithBlock waits with no deadline, so an unreachable server hangs this call; use grpc\.NewClient`
}

// ---- Not reported ----

func helloDeadline(c greeterpb.GreeterClient) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c.SayHello(ctx, &greeterpb.HelloRequest{})
}

func helloFromCaller(ctx context.Context, c greeterpb.GreeterClient) {
	c.SayHello(metadata.AppendToOutgoingContext(ctx, "k", "v"), &greeterpb.HelloRequest{})
}

// A server-streaming call lives as long as the stream: no deadline by design.
func watch(c greeterpb.GreeterClient) {
	c.WatchHellos(context.Background(), &greeterpb.HelloRequest{})
}

func newStream(conn *grpc.ClientConn) {
	conn.NewStream(context.Background(), &grpc.StreamDesc{ServerStreams: true}, "/greeter.Greeter/WatchHellos")
}

func dialNonBlocking(addr string) {
	grpc.Dial(addr, grpc.WithInsecure())
	grpc.NewClient(addr, grpc.WithBlock()) // NewClient never blocks
}

func dialBlockTimeout(addr string) {
	grpc.Dial(addr, grpc.WithBlock(), grpc.WithTimeout(5*time.Second))
}

func dialContextBlockDeadline(addr string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	grpc.DialContext(ctx, addr, grpc.WithBlock())
}

// Options from the caller may carry a timeout.
func dialWithOptions(addr string, opts ...grpc.DialOption) {
	grpc.Dial(addr, append(opts, grpc.WithBlock())...)
}

// Detached work: WithoutCancel drops the caller's deadline along with its cancellation.
func detached(ctx context.Context, c greeterpb.GreeterClient) {
	go c.SayHello(context.WithoutCancel(ctx), &greeterpb.HelloRequest{}) // related "grpccalls.go:87: context.WithoutCancel drops the deadline" // want `GreeterClient\.SayHello's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
}

func detachedWithTimeout(ctx context.Context, c greeterpb.GreeterClient) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	c.SayHello(ctx, &greeterpb.HelloRequest{})
}
