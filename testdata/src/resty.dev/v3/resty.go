// Package resty is a stub of resty.dev/v3.
package resty

import (
	"context"
	"time"
)

type Client struct{}
type Request struct{}
type Response struct{}

func New() *Client                                                { return &Client{} }
func (c *Client) SetRetryCount(count int) *Client                 { return c }
func (c *Client) SetRetryWaitTime(d time.Duration) *Client        { return c }
func (c *Client) SetRetryAllowNonIdempotent(allow bool) *Client   { return c }
func (c *Client) SetTimeout(d time.Duration) *Client              { return c }
func (c *Client) R() *Request                                     { return &Request{} }
func (r *Request) SetHeader(header, value string) *Request        { return r }
func (r *Request) SetBody(body any) *Request                      { return r }
func (r *Request) SetContext(ctx context.Context) *Request        { return r }
func (r *Request) SetRetryAllowNonIdempotent(allow bool) *Request { return r }
func (r *Request) Get(url string) (*Response, error)              { return nil, nil }
func (r *Request) Post(url string) (*Response, error)             { return nil, nil }
func (r *Request) Patch(url string) (*Response, error)            { return nil, nil }
func (r *Response) StatusCode() int                               { return 0 }
