// Package lib is imported by ssapkg/use: some of its members are named there, some not.
package lib

import "context"

var Endpoint = "https://api.example.com"

var Unused = 1

type Client struct{ Retries int }

func (c *Client) Do(ctx context.Context, path string) error { return nil }

func (c Client) Name() string { return "client" }

func New() *Client { return &Client{Retries: 3} }

func NeverCalled() {}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Embedded struct{ *Client }

func init() { Unused = 2 }
