// Package resty is a stub of github.com/go-resty/resty/v2.
package resty

import (
	"context"
	"net/http"
	"time"
)

// Client retries a request RetryCount times (0 by default: once) in Execute, through Backoff,
// as the library does.
type Client struct {
	RetryCount int
	httpClient *http.Client
}
type Request struct {
	Header http.Header
	client *Client
	ctx    context.Context
}
type Response struct{ RawResponse *http.Response }

func New() *Client                                                        { return &Client{httpClient: &http.Client{}} }
func NewWithClient(hc *http.Client) *Client                               { return &Client{httpClient: hc} }
func (c *Client) SetBaseURL(url string) *Client                           { return c }
func (c *Client) SetHeader(header, value string) *Client                  { return c }
func (c *Client) SetTransport(t http.RoundTripper) *Client                { return c }
func (c *Client) GetClient() *http.Client                                 { return c.httpClient }
func (c *Client) NewRequest() *Request                                    { return c.R() }
func (c *Client) Clone() *Client                                          { cc := *c; return &cc }
func (c *Client) OnBeforeRequest(m func(*Client, *Request) error) *Client { return c }
func (r *Request) SetOutput(file string) *Request                         { return r }
func (r *Request) SetDoNotParseResponse(parse bool) *Request              { return r }
func (c *Client) SetRetryCount(count int) *Client                         { c.RetryCount = count; return c }
func (c *Client) SetRetryWaitTime(d time.Duration) *Client                { return c }
func (c *Client) SetTimeout(d time.Duration) *Client                      { return c }
func (c *Client) SetRetryMaxWaitTime(d time.Duration) *Client             { return c }
func (c *Client) AddRetryCondition(f func(*Response, error) bool) *Client { return c }
func (r *Request) SetAuthToken(token string) *Request                     { return r }
func (c *Client) R() *Request                                             { return &Request{client: c} }
func (r *Request) SetHeader(header, value string) *Request                { return r }
func (r *Request) SetBody(body interface{}) *Request                      { return r }
func (r *Request) SetFormData(data map[string]string) *Request            { return r }
func (r *Request) SetResult(res interface{}) *Request                     { return r }
func (r *Request) SetContext(ctx context.Context) *Request                { return r }
func (r *Request) SetQueryString(query string) *Request                   { return r }
func (r *Request) Get(url string) (*Response, error)                      { return r.Execute("GET", url) }
func (r *Request) Post(url string) (*Response, error)                     { return nil, nil }
func (r *Request) Put(url string) (*Response, error)                      { return nil, nil }
func (r *Request) Patch(url string) (*Response, error)                    { return nil, nil }
func (r *Request) Delete(url string) (*Response, error)                   { return nil, nil }
func (r *Request) Head(url string) (*Response, error)                     { return nil, nil }
func (r *Request) Options(url string) (*Response, error)                  { return nil, nil }
func (r *Request) Execute(method, url string) (*Response, error) {
	var resp *Response
	err := Backoff(func() (*Response, error) {
		req, err := http.NewRequestWithContext(r.ctx, method, url, nil)
		if err != nil {
			return nil, err
		}
		raw, err := r.client.httpClient.Do(req)
		if err != nil {
			return nil, err
		}
		resp = &Response{RawResponse: raw}
		return resp, nil
	}, Retries(r.client.RetryCount))
	return resp, err
}

type Option func(*Options)

type Options struct{ maxRetries int }

func Retries(n int) Option { return func(o *Options) { o.maxRetries = n } }

// Backoff runs operation until it succeeds, at most 1 + the retries its options allow.
func Backoff(operation func() (*Response, error), options ...Option) error {
	opts := Options{}
	for _, o := range options {
		o(&opts)
	}
	var err error
	for attempt := 0; attempt <= opts.maxRetries; attempt++ {
		if _, err = operation(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}
func (r *Response) StatusCode() int { return 0 }
func (r *Response) IsError() bool   { return false }
func (r *Response) Body() []byte    { return nil }
