package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// An SDK's central request method, as long as real ones are: it builds the request, signs
// it, records metrics, decodes errors, and retries in a `for range c.retryCount + 1` loop
// whose policy function decides, with a wait computed from the attempt.

type apiMetrics struct {
	requests atomic.Int64
	retries  atomic.Int64
	failures atomic.Int64
}

type longAPIError struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *longAPIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

type LongClient struct {
	hc         *http.Client
	base       *url.URL
	apiKey     string
	userAgent  string
	retryCount int
	retryWait  time.Duration
	log        *slog.Logger
	metrics    *apiMetrics
	beforeSend func(*http.Request)
}

func shouldRetryLong(resp *http.Response, err error) bool {
	if err != nil {
		var ue *url.Error
		return errors.As(err, &ue) && (ue.Timeout() || strings.Contains(ue.Error(), "connection reset"))
	}
	return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
}

func (c *LongClient) Do(ctx context.Context, method, path string, query url.Values, in, out any) (err error) {
	u := c.base.JoinPath(path)
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	var payload []byte
	if in != nil {
		if payload, err = json.Marshal(in); err != nil {
			return fmt.Errorf("encoding %s %s: %w", method, path, err)
		}
	}
	start := time.Now()
	defer func() {
		c.metrics.requests.Add(1)
		if err != nil {
			c.metrics.failures.Add(1)
		}
		c.log.Debug("request done", "method", method, "path", path, "took", time.Since(start), "err", err)
	}()

	var resp *http.Response
	var body []byte
	attempt := 0
	for range c.retryCount + 1 {
		attempt++
		var rdr io.Reader
		if payload != nil {
			rdr = bytes.NewReader(payload)
		}
		req, rerr := http.NewRequestWithContext(ctx, method, u.String(), rdr)
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
		req.Header.Set("User-Agent", c.userAgent)
		req.Header.Set("Accept", "application/json")
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("X-Attempt", strconv.Itoa(attempt))
		if c.beforeSend != nil {
			c.beforeSend(req)
		}
		resp, err = c.hc.Do(req)
		if err == nil {
			body, err = func() ([]byte, error) {
				defer resp.Body.Close()
				return io.ReadAll(io.LimitReader(resp.Body, 8<<20))
			}()
		}
		if !shouldRetryLong(resp, err) {
			break
		}
		c.metrics.retries.Add(1)
		wait := c.retryWait * time.Duration(attempt)
		if resp != nil {
			if s := resp.Header.Get("X-RateLimit-Reset"); s != "" {
				c.log.Info("rate limited", "reset", s)
			}
		}
		c.log.Warn("retrying", "method", method, "path", path, "attempt", attempt, "wait", wait, "err", err)
		time.Sleep(wait) // related "longrequest.go:80: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	switch {
	case resp.StatusCode == http.StatusNoContent:
		return nil
	case resp.StatusCode >= 400:
		apiErr := &longAPIError{Status: resp.StatusCode}
		if jerr := json.Unmarshal(body, apiErr); jerr != nil || apiErr.Message == "" {
			apiErr.Message = strings.TrimSpace(string(body))
		}
		return apiErr
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("decoding %s %s: %w", method, path, err)
	}
	return nil
}
