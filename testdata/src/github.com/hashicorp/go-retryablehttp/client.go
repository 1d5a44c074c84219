// Package retryablehttp is a stub of github.com/hashicorp/go-retryablehttp.
package retryablehttp

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

type Backoff func(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration
type CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)

type Client struct {
	HTTPClient   *http.Client
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int
	CheckRetry   CheckRetry
	Backoff      Backoff
	ErrorHandler ErrorHandler
	Logger       interface{}

	RequestLogHook RequestLogHook
}

// Logger is the interface of a client's logger.
type Logger interface {
	Printf(string, ...interface{})
}

// RequestLogHook is called before each attempt.
type RequestLogHook func(Logger, *http.Request, int)

type ErrorHandler func(resp *http.Response, err error, numTries int) (*http.Response, error)

type Request struct {
	*http.Request
}

func NewClient() *Client { return &Client{} }
func NewRequest(method, url string, rawBody interface{}) (*Request, error) {
	return nil, nil
}
func NewRequestWithContext(ctx context.Context, method, url string, rawBody interface{}) (*Request, error) {
	return nil, nil
}
func FromRequest(r *http.Request) (*Request, error) { return &Request{Request: r}, nil }
func DefaultRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return err != nil, nil
}
func DefaultBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return min
}
func LinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return min
}
func (r *Request) WithContext(ctx context.Context) *Request { return r }
func (c *Client) Do(req *Request) (*http.Response, error)   { return nil, nil }
func (c *Client) Get(url string) (*http.Response, error)    { return nil, nil }
func (c *Client) Head(url string) (*http.Response, error)   { return nil, nil }
func (c *Client) Post(url, bodyType string, body interface{}) (*http.Response, error) {
	req, err := NewRequest("POST", url, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", bodyType)
	return c.Do(req)
}
func (c *Client) PostForm(url string, data url.Values) (*http.Response, error) { return nil, nil }
func (c *Client) StandardClient() *http.Client                                 { return &http.Client{} }

func Get(url string) (*http.Response, error) { return nil, nil }

var defaultClient = NewClient()

func Post(url, bodyType string, body interface{}) (*http.Response, error) {
	return defaultClient.Post(url, bodyType, body)
}
func PostForm(url string, data url.Values) (*http.Response, error) { return nil, nil }
