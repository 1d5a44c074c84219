// Package connect is a stub of connectrpc.com/connect (v1.19, public signatures only).
package connect

import (
	"context"
	"net/http"
)

// HTTPClient is the interface the generated clients send through (*http.Client has it).
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

type ClientOption interface{ applyToClient() }

type Request[T any] struct{ Msg *T }

func NewRequest[T any](message *T) *Request[T] { return &Request[T]{Msg: message} }

func (r *Request[T]) Header() http.Header { return http.Header{} }

type Response[T any] struct{ Msg *T }

type ServerStreamForClient[Res any] struct{}

func (s *ServerStreamForClient[Res]) Receive() bool { return false }
func (s *ServerStreamForClient[Res]) Msg() *Res     { return nil }
func (s *ServerStreamForClient[Res]) Err() error    { return nil }
func (s *ServerStreamForClient[Res]) Close() error  { return nil }

type Client[Req, Res any] struct {
	httpClient HTTPClient
	url        string
}

func NewClient[Req, Res any](httpClient HTTPClient, url string, options ...ClientOption) *Client[Req, Res] {
	return &Client[Req, Res]{httpClient: httpClient, url: url}
}

func (c *Client[Req, Res]) CallUnary(ctx context.Context, request *Request[Req]) (*Response[Res], error) {
	return nil, nil
}

func (c *Client[Req, Res]) CallServerStream(ctx context.Context, request *Request[Req]) (*ServerStreamForClient[Res], error) {
	return nil, nil
}

func WithGRPC() ClientOption { return nil }
