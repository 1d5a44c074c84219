// Package grpc is a stub of google.golang.org/grpc: the client API, with the public
// signatures of the real package and no behaviour.
package grpc

import (
	"context"
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
type ClientConn struct{}

func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
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
