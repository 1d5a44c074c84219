// Package fallbackwait: retry helpers that wait as long as the API says when it says, and
// otherwise a delay they compute. The computed delay is what every failure without a word
// (5xx, transport errors) waits: without jitter, the clients that failed together retry together.
package fallbackwait

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// ---- A bot API's retrying caller: the error names a wait on 429, else exponential ----

type Params struct {
	RetryAfter int `json:"retry_after"`
}

type APIError struct {
	Code        int
	Description string
	Parameters  *Params
}

func (e *APIError) Error() string { return fmt.Sprintf("api error %d: %s", e.Code, e.Description) }

type Answer struct {
	OK     bool
	Result []byte
	Err    *APIError
}

type Sender interface {
	Send(ctx context.Context, method string, body []byte) (*Answer, error)
}

type RetrySender struct {
	Sender      Sender
	MaxAttempts int
	Base        float64
	StartDelay  time.Duration
	MaxDelay    time.Duration
	Logger      *log.Logger
}

func (r *RetrySender) Send(ctx context.Context, method string, body []byte) (*Answer, error) {
	var err error
	var ans *Answer
	for i := 0; i < r.MaxAttempts; i++ {
		ans, err = r.Sender.Send(ctx, method, body)
		if err == nil && ans.Err == nil {
			return ans, nil
		}
		if err == nil {
			err = ans.Err
		}
		if i == r.MaxAttempts-1 {
			break
		}
		delay, ok := r.toldDelay(err)
		if !ok {
			return nil, err
		}
		if delay == 0 {
			delay = min(time.Duration(math.Pow(r.Base, float64(i)))*r.StartDelay, r.MaxDelay)
		}
		r.Logger.Printf("%s: attempt %d failed: %v", method, i+1, err)
		select {
		case <-ctx.Done():
			return nil, errors.Join(err, ctx.Err())
		case <-time.After(delay): // related "fallbackwait.go:56: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
	}
	return nil, fmt.Errorf("%s: out of attempts: %w", method, err)
}

// toldDelay returns how long the API asked to wait (0 when it did not say) and whether to retry.
func (r *RetrySender) toldDelay(err error) (time.Duration, bool) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return 0, true
	}
	switch {
	case apiErr.Code == http.StatusTooManyRequests:
		if apiErr.Parameters == nil {
			return 0, true
		}
		d := time.Duration(apiErr.Parameters.RetryAfter) * time.Second
		if d > r.MaxDelay {
			return 0, false
		}
		return d, true
	case apiErr.Code >= 500:
		return 0, true
	}
	return 0, false
}

// ---- A generated client's request loop: a rate-limit header on 429, base*mult^n otherwise ----

type RetryConfig struct {
	Enabled    bool
	MaxRetries int
	Base       float64
	Multiplier float64
	Timeout    time.Duration
}

type APIClient struct {
	HTTP  *http.Client
	Retry RetryConfig
	Debug bool
}

func (c *APIClient) Call(req *http.Request) (*http.Response, error) {
	var raw []byte
	if req.Body != nil && req.Body != http.NoBody {
		raw, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	ctx, cancel := context.WithTimeout(req.Context(), c.Retry.Timeout)
	defer cancel()
	n := 0
	for {
		again := req.Clone(ctx)
		again.Body = io.NopCloser(bytes.NewReader(raw))
		resp, err := c.HTTP.Do(again)
		if err != nil {
			return resp, err
		}
		if c.Debug {
			log.Printf("%s %s: %d (attempt %d)", req.Method, req.URL, resp.StatusCode, n+1)
		}
		wait, retry := c.retryAfter(resp, n)
		if !retry {
			return resp, nil
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(*wait): // related "fallbackwait.go:131: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
			n++
		}
	}
}

// retryAfter says whether to retry resp and after how long: the reset header on a 429, else
// base * multiplier^n.
func (c *APIClient) retryAfter(resp *http.Response, n int) (*time.Duration, bool) {
	if !c.Retry.Enabled || n == c.Retry.MaxRetries {
		return nil, false
	}
	if v := resp.Header.Get("X-RateLimit-Reset"); resp.StatusCode == http.StatusTooManyRequests && v != "" {
		if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
			d := time.Duration(secs) * time.Second
			return &d, true
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		secs := c.Retry.Base * math.Pow(c.Retry.Multiplier, float64(n))
		d := time.Duration(secs * float64(time.Second))
		return &d, true
	}
	return nil, false
}

// ---- Not reported: the fallback is jittered ----

type JitteredSender struct {
	RetrySender
}

func (r *JitteredSender) Send(ctx context.Context, method string, body []byte) (*Answer, error) {
	var err error
	var ans *Answer
	for i := 0; i < r.MaxAttempts; i++ {
		ans, err = r.Sender.Send(ctx, method, body)
		if err == nil && ans.Err == nil {
			return ans, nil
		}
		if err == nil {
			err = ans.Err
		}
		delay, ok := r.toldDelay(err)
		if !ok {
			return nil, err
		}
		if delay == 0 {
			d := min(time.Duration(math.Pow(r.Base, float64(i)))*r.StartDelay, r.MaxDelay)
			delay = d/2 + rand.N(d/2+1)
		}
		select {
		case <-ctx.Done():
			return nil, errors.Join(err, ctx.Err())
		case <-time.After(delay):
		}
	}
	return nil, fmt.Errorf("%s: out of attempts: %w", method, err)
}

// ---- Not reported: the wait is the API's word, or none when it says nothing and the
// sender gives up ----

func (r *RetrySender) SendTold(ctx context.Context, method string, body []byte) (*Answer, error) {
	for i := 0; ; i++ {
		ans, err := r.Sender.Send(ctx, method, body)
		if err == nil && ans.Err == nil {
			return ans, nil
		}
		if err == nil {
			err = ans.Err
		}
		delay, ok := r.toldDelay(err)
		if !ok || delay == 0 || i >= r.MaxAttempts {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, errors.Join(err, ctx.Err())
		case <-time.After(delay):
		}
	}
}

// ---- Not reported: the wait is what is left of a gap since the last try, an instant kept
// round the loop (no delay of the program's own grows with the attempts) ----

func (r *RetrySender) SendSpaced(ctx context.Context, method string, body []byte, gap time.Duration) (*Answer, error) {
	var last time.Time
	var err error
	for i := 0; i < r.MaxAttempts; i++ {
		time.Sleep(time.Until(last.Add(gap)))
		last = time.Now()
		var ans *Answer
		ans, err = r.Sender.Send(ctx, method, body)
		if err == nil && ans.Err == nil {
			return ans, nil
		}
		if err == nil {
			err = ans.Err
		}
		r.Logger.Printf("%s: attempt %d failed: %v", method, i+1, err)
	}
	return nil, fmt.Errorf("%s: out of attempts: %w", method, err)
}
