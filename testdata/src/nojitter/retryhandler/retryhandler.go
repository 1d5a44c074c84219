// Package retryhandler is a database client whose request loop leaves the wait between
// attempts to a pluggable retry handler. The handler the package gives by default waits a
// jittered, growing delay, so the loop waits too: users who keep the default are fine. A
// loop that only consults a handler's decision, whose implementations never wait, goes round
// at once.
package retryhandler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

// ErrThrottled is returned when the store throttles the client.
var ErrThrottled = errors.New("request throttled")

// RetryHandler decides whether a failed request is sent again, and waits before it is.
type RetryHandler interface {
	ShouldRetry(attempt int, err error) bool
	Delay(ctx context.Context, attempt int, err error) error
}

// DefaultRetryHandler retries throttling up to max times, with a jittered backoff.
type DefaultRetryHandler struct {
	max  int
	base time.Duration
}

// NewDefaultRetryHandler returns the handler a client uses unless told otherwise.
func NewDefaultRetryHandler(max int, base time.Duration) *DefaultRetryHandler {
	return &DefaultRetryHandler{max: max, base: base}
}

// ShouldRetry retries throttling only.
func (h *DefaultRetryHandler) ShouldRetry(attempt int, err error) bool {
	return attempt < h.max && errors.Is(err, ErrThrottled)
}

// Delay waits base·2^attempt, jittered, or until ctx ends.
func (h *DefaultRetryHandler) Delay(ctx context.Context, attempt int, err error) error {
	d := h.base << attempt
	d = d/2 + rand.N(d/2+1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Client talks to the store's HTTP endpoint.
type Client struct {
	endpoint     string
	hc           *http.Client
	RetryHandler RetryHandler
	Refresher    Refresher
}

// New returns a client with the default retry handler.
func New(endpoint string) *Client {
	return &Client{
		endpoint:     endpoint,
		hc:           &http.Client{Timeout: 30 * time.Second},
		RetryHandler: NewDefaultRetryHandler(10, 50*time.Millisecond),
		Refresher:    tokenRefresher{},
	}
}

func (c *Client) send(ctx context.Context, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint+"/query", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		return nil, ErrThrottled
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("query: status %d", resp.StatusCode)
	}
	return io.ReadAll(resp.Body)
}

// handleRetry says whether the request goes again, after the handler's wait.
func (c *Client) handleRetry(ctx context.Context, attempt int, err error) (bool, error) {
	if c.RetryHandler == nil || !c.RetryHandler.ShouldRetry(attempt, err) {
		return false, nil
	}
	slog.Debug("retrying query", "attempt", attempt, "err", err)
	if err := c.RetryHandler.Delay(ctx, attempt, err); err != nil {
		return false, err
	}
	return true, nil
}

// Query sends a query, as often as the retry handler allows.
func (c *Client) Query(ctx context.Context, q []byte) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		out, err := c.send(ctx, q)
		if err == nil {
			return out, nil
		}
		again, herr := c.handleRetry(ctx, attempt, err)
		if herr != nil {
			return nil, herr
		}
		if !again {
			return nil, err
		}
	}
}

// Refresher decides whether a rejected request is worth sending again with new credentials.
type Refresher interface {
	Refresh(err error) bool
}

type tokenRefresher struct{}

func (tokenRefresher) Refresh(err error) bool { return err != nil }

// Exec sends a statement again at once as long as the refresher says so.
func (c *Client) Exec(ctx context.Context, stmt []byte) error {
	for { // related "retryhandler.go:138: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		_, err := c.send(ctx, stmt)
		if err == nil {
			return nil
		}
		if !c.Refresher.Refresh(err) {
			return err
		}
		slog.Warn("exec failed, sending again", "err", err)
	}
}
