// Package readiness waits for a service to be ready: it polls at a fixed period, whatever
// each round found.
package readiness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"time"
)

type Target interface {
	Logs(ctx context.Context) (io.ReadCloser, error)
	Endpoint(ctx context.Context) (string, error)
}

type HTTPStrategy struct {
	Path         string
	PollInterval time.Duration
	StatusOK     func(int) bool
	Client       *http.Client
}

// WaitUntilReady polls the endpoint every PollInterval until it answers as expected: a
// failed request waits the same period as a wrong status. Not reported.
func (s *HTTPStrategy) WaitUntilReady(ctx context.Context, target Target) error {
	base, err := target.Endpoint(ctx)
	if err != nil {
		return fmt.Errorf("endpoint: %w", err)
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.PollInterval):
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+s.Path, nil)
			if err != nil {
				return err
			}
			req.Header.Set("Accept", "application/json")
			resp, err := s.Client.Do(req)
			if err != nil {
				continue
			}
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			if s.StatusOK != nil && !s.StatusOK(resp.StatusCode) {
				continue
			}
			if !bytes.Contains(body, []byte(`"status":"up"`)) {
				continue
			}
			return nil
		}
	}
}

type LogStrategy struct {
	Pattern      *regexp.Regexp
	PollInterval time.Duration
	Timeout      time.Duration
}

// WaitUntilReady reads the logs every PollInterval until the pattern shows: a failed read
// waits the period a read without the pattern waits. Not reported.
func (s *LogStrategy) WaitUntilReady(ctx context.Context, target Target) error {
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	var lastErr error
	for {
		select {
		case <-ctx.Done():
			return errors.Join(lastErr, ctx.Err())
		default:
		}
		rc, err := target.Logs(ctx)
		if err != nil {
			lastErr = err
			time.Sleep(s.PollInterval)
			continue
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			lastErr = err
			time.Sleep(s.PollInterval)
			continue
		}
		if !s.Pattern.Match(b) {
			lastErr = fmt.Errorf("pattern %q not found yet", s.Pattern)
			time.Sleep(s.PollInterval)
			continue
		}
		return nil
	}
}

// WaitBackingOff polls every PollInterval, but waits a fixed 5 s after a failed request: the
// failure's wait is its own, and fixed. Reported.
func (s *HTTPStrategy) WaitBackingOff(ctx context.Context, url string) error {
	for ctx.Err() == nil {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := s.Client.Do(req)
		if err != nil {
			time.Sleep(5 * time.Second) // related "readiness.go:105: retry loop" // want `retry loop waits a fixed 5s between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			time.Sleep(s.PollInterval)
			continue
		}
		return nil
	}
	return ctx.Err()
}
