// Package restyhelperkey is a mail API SDK over a retrying resty client whose request helper
// puts a fresh idempotency key on each request it makes, before handing it to the method's
// callback: the client's retries of that request send the same key.
package restyhelperkey

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/go-resty/resty/v2"
)

// Manager holds the resty client every Client of the account shares.
type Manager struct {
	rc *resty.Client
}

type options struct {
	baseURL    string
	retryCount int
	transport  http.RoundTripper
}

// Option configures a Manager.
type Option func(*options)

// WithRetryCount changes how many times a failed request is sent again.
func WithRetryCount(n int) Option { return func(o *options) { o.retryCount = n } }

// WithTransport sets the transport the client sends through.
func WithTransport(t http.RoundTripper) Option { return func(o *options) { o.transport = t } }

// SetRetryCount changes how many times the manager's client sends a failed request again.
func (m *Manager) SetRetryCount(n int) *Manager {
	m.rc.SetRetryCount(n)
	return m
}

// New makes a manager whose client retries dial errors, dropped connections and throttling.
func New(baseURL string, opts ...Option) *Manager {
	o := options{baseURL: baseURL, retryCount: 3, transport: http.DefaultTransport}
	for _, opt := range opts {
		opt(&o)
	}
	m := &Manager{rc: resty.New()}
	m.rc.SetBaseURL(o.baseURL)
	m.rc.SetTransport(o.transport)
	m.rc.SetRetryCount(o.retryCount)
	m.rc.SetRetryMaxWaitTime(time.Minute)
	m.rc.AddRetryCondition(retryDropped)
	m.rc.AddRetryCondition(retryThrottled)
	return m
}

func retryDropped(res *resty.Response, err error) bool {
	var opErr *net.OpError
	return res == nil || res.RawResponse == nil || errors.As(err, &opErr)
}

func retryThrottled(res *resty.Response, err error) bool {
	return res != nil && (res.StatusCode() == http.StatusTooManyRequests || res.StatusCode() == http.StatusServiceUnavailable)
}

// r makes a request of the manager's client bound to ctx.
func (m *Manager) r(ctx context.Context) *resty.Request {
	return m.rc.R().SetContext(ctx)
}
