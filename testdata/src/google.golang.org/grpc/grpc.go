// Package grpc is a stub of google.golang.org/grpc: the client API, with the public
// signatures of the real package and no behaviour but a unary call's replay (transparent, or by a
// service config's retry policy), in the shape of the real clientStream.withRetry.
package grpc

import (
	"context"
	"net"
	"time"

	"google.golang.org/grpc/metadata"
)

// CallOption configures a call.
type CallOption interface{ before() error }

// DialOption configures how a connection is set up.
type DialOption interface{ apply() }

type option struct{}

func (option) apply()        {}
func (option) before() error { return nil }

// ClientConnInterface is what generated client stubs call.
type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
	NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error)
}

// ClientConn is a virtual connection to a gRPC server.
type ClientConn struct {
	conn          net.Conn
	retryThrottle int
}

// Invoke sends a unary call on a stream of its own; the stream replays the call only where
// the real package does (see clientStream.withRetry).
func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	cs := &clientStream{ctx: ctx, cc: cc, method: method}
	if err := cs.withRetry(func() error { return cs.send(args) }); err != nil {
		return err
	}
	return cs.withRetry(func() error { return cs.recv(reply) })
}

// clientStream is one call's stream: the attempt in flight and what the retry rules allow.
type clientStream struct {
	ctx       context.Context
	cc        *ClientConn
	method    string
	committed bool // the server has seen the call: no more replays
	attempts  int
	policy    *retryPolicy // from the service config; nil unless the program sets one
}

type retryPolicy struct {
	maxAttempts    int
	initialBackoff time.Duration
}

func (cs *clientStream) send(m any) error {
	_, err := cs.cc.conn.Write([]byte(cs.method))
	return err
}

func (cs *clientStream) recv(m any) error {
	buf := make([]byte, 512)
	_, err := cs.cc.conn.Read(buf)
	return err
}

// withRetry runs op again after a failure that the server never saw (a transparent retry)
// or that the service config's retry policy covers, waiting its backoff.
func (cs *clientStream) withRetry(op func() error) error {
	for {
		err := op()
		if err == nil || cs.committed {
			return err
		}
		if err := cs.shouldRetry(err); err != nil {
			return err
		}
		cs.attempts++
	}
}

func (cs *clientStream) shouldRetry(err error) error {
	if cs.policy == nil || cs.attempts+1 >= cs.policy.maxAttempts {
		return err
	}
	t := time.NewTimer(cs.policy.initialBackoff)
	select {
	case <-t.C:
		return nil
	case <-cs.ctx.Done():
		t.Stop()
		return cs.ctx.Err()
	}
}

func (cc *ClientConn) NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error) {
	return nil, nil
}

func (cc *ClientConn) Close() error { return nil }

// StreamDesc describes a streaming RPC.
type StreamDesc struct {
	StreamName    string
	ServerStreams bool
	ClientStreams bool
}

// ClientStream is the client side of a stream.
type ClientStream interface {
	Header() (metadata.MD, error)
	Trailer() metadata.MD
	CloseSend() error
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ServerStreamingClient is the client side of a server-streaming RPC.
type ServerStreamingClient[Res any] interface {
	Recv() (*Res, error)
	ClientStream
}

// EmptyCallOption does not alter the call: embedded by other packages' call options.
type EmptyCallOption struct{}

func (EmptyCallOption) before() error { return nil }

// Streamer is called by a StreamClientInterceptor to create a ClientStream.
type Streamer func(ctx context.Context, desc *StreamDesc, cc *ClientConn, method string, opts ...CallOption) (ClientStream, error)

// StreamClientInterceptor intercepts the creation of a ClientStream.
type StreamClientInterceptor func(ctx context.Context, desc *StreamDesc, cc *ClientConn, method string, streamer Streamer, opts ...CallOption) (ClientStream, error)

// UnaryInvoker is called by a UnaryClientInterceptor to complete the call.
type UnaryInvoker func(ctx context.Context, method string, req, reply any, cc *ClientConn, opts ...CallOption) error

// UnaryClientInterceptor intercepts unary calls on the client.
type UnaryClientInterceptor func(ctx context.Context, method string, req, reply any, cc *ClientConn, invoker UnaryInvoker, opts ...CallOption) error

func Dial(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }
func DialContext(ctx context.Context, target string, opts ...DialOption) (conn *ClientConn, err error) {
	return &ClientConn{}, nil
}
func NewClient(target string, opts ...DialOption) (conn *ClientConn, err error) {
	return &ClientConn{}, nil
}

func WithBlock() DialOption                                              { return option{} }
func WithReturnConnectionError() DialOption                              { return option{} }
func WithTimeout(d time.Duration) DialOption                             { return option{} }
func WithInsecure() DialOption                                           { return option{} }
func WithUserAgent(s string) DialOption                                  { return option{} }
func WithUnaryInterceptor(f UnaryClientInterceptor) DialOption           { return option{} }
func WithChainUnaryInterceptor(f ...UnaryClientInterceptor) DialOption   { return option{} }
func WithStreamInterceptor(f StreamClientInterceptor) DialOption         { return option{} }
func WithChainStreamInterceptor(f ...StreamClientInterceptor) DialOption { return option{} }
func WithDefaultServiceConfig(s string) DialOption                       { return option{} }
func WithDefaultCallOptions(cos ...CallOption) DialOption                { return option{} }
func WaitForReady(waitForReady bool) CallOption                          { return option{} }

// Server is a gRPC server.
type Server struct{}
