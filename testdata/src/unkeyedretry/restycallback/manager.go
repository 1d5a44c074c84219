// Package restycallback is a mail API's SDK over a resty client that its manager configures
// to retry: each method builds its request in a callback that the client's request helper
// calls with a request made from the manager's client.
package restycallback

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
	m.rc.SetRetryCount(o.retryCount) // related "manager.go:79: POST /core/v4/feedback sent here" "messages.go:32: POST /mail/v4/messages sent here" "messages.go:82: POST /core/v4/labels sent here" // want `the client configured here retries POST /core/v4/feedback and 2 other requests with no idempotency key`
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

// Feedback sends the user's feedback with a header for each tag, the request built up in a
// loop: one more request the client's retries can repeat.
func (m *Manager) Feedback(ctx context.Context, text string, tags []string) error {
	r := m.r(ctx).SetBody(map[string]string{"Text": text})
	for _, t := range tags {
		r = r.SetHeader("X-Feedback-Tag", t)
	}
	res, err := r.Post("/core/v4/feedback")
	if err != nil {
		return err
	}
	if res.IsError() {
		return errors.New("feedback refused")
	}
	return nil
}
