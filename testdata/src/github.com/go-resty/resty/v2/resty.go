// Package resty is a stub of github.com/go-resty/resty/v2.
package resty

import (
	"context"
	"net/http"
	"time"
)

type Client struct{}
type Request struct{ Header http.Header }
type Response struct{}

func New() *Client                                         { return &Client{} }
func (c *Client) SetRetryCount(count int) *Client          { return c }
func (c *Client) SetRetryWaitTime(d time.Duration) *Client { return c }
func (c *Client) SetTimeout(d time.Duration) *Client       { return c }
func (c *Client) R() *Request                              { return &Request{} }
func (r *Request) SetHeader(header, value string) *Request { return r }
func (r *Request) SetBody(body interface{}) *Request       { return r }
func (r *Request) SetContext(ctx context.Context) *Request { return r }
func (r *Request) Get(url string) (*Response, error)       { return nil, nil }
func (r *Request) Post(url string) (*Response, error)      { return nil, nil }
func (r *Request) Put(url string) (*Response, error)       { return nil, nil }
func (r *Request) Patch(url string) (*Response, error)     { return nil, nil }
func (r *Request) Delete(url string) (*Response, error)    { return nil, nil }
func (r *Request) Head(url string) (*Response, error)      { return nil, nil }
func (r *Request) Options(url string) (*Response, error)   { return nil, nil }
func (r *Request) Execute(method, url string) (*Response, error) {
	return nil, nil
}
func (r *Response) StatusCode() int { return 0 }
func (r *Response) IsError() bool   { return false }
