// Package querysession is a query engine's HTTP session. Do retries transport failures and
// 503s with a doubling delay and no jitter: the wait after a 503 follows a call that
// returned an answer, but the answer is a failure, so both waits are retry waits.
package querysession

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

const (
	maxAttempts = 10
	maxDelay    = 30 * time.Second
)

// Session sends statements to a coordinator.
type Session struct {
	hc   *http.Client
	user string
}

// New returns a session.
func New(user string) *Session {
	return &Session{hc: &http.Client{Timeout: 2 * time.Minute}, user: user}
}

func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne)
}

// Do sends req, retrying transport failures and 503s.
func (s *Session) Do(ctx context.Context, req *http.Request, v any) (*http.Response, error) {
	req = req.WithContext(ctx)
	if req.Body != nil && req.GetBody == nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(b))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	req.Header.Set("X-Query-User", s.user)
	delay := time.Second
	for attempt := 0; attempt < maxAttempts; attempt++ {
		resp, err := s.hc.Do(req)
		if err != nil {
			if ctx.Err() != nil || !transient(err) {
				return nil, err
			}
			slog.Debug("retrying after a connection error", "attempt", attempt+1, "err", err)
			if req.GetBody != nil {
				body, berr := req.GetBody()
				if berr != nil {
					return nil, fmt.Errorf("resetting the body: %w", berr)
				}
				req.Body = body
			}
			if err := wait(ctx, delay); err != nil { // related "querysession.go:68: retry loop" "querysession.go:104: also waits without jitter" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
				return nil, err
			}
			delay = min(2*delay, maxDelay)
			continue
		}
		if resp.StatusCode == http.StatusOK {
			defer resp.Body.Close()
			if v != nil {
				err = json.NewDecoder(resp.Body).Decode(v)
			}
			return resp, err
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			resp.Body.Close()
			if req.GetBody != nil {
				body, berr := req.GetBody()
				if berr != nil {
					return nil, fmt.Errorf("resetting the body: %w", berr)
				}
				req.Body = body
			}
			if err := wait(ctx, delay); err != nil {
				return nil, err
			}
			delay = min(2*delay, maxDelay)
			continue
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<14))
		resp.Body.Close()
		return resp, fmt.Errorf("query server error: %d: %s", resp.StatusCode, msg)
	}
	return nil, errors.New("max retries exceeded")
}
