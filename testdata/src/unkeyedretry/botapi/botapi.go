// Package botapi calls a chat bot API: every method is a POST of a JSON body, through a
// Caller; RetryCaller retries another Caller. The retry loop calls the interface; the package's
// implementation that sends (HTTPCaller) posts, so the loop resends a POST. A loop over an
// interface whose implementations only read is not reported.
package botapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

type Response struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result,omitempty"`
	ErrorCode   int             `json:"error_code,omitempty"`
	Description string          `json:"description,omitempty"`
}

// Caller sends one API method call.
type Caller interface {
	Call(ctx context.Context, url string, body []byte) (*Response, error)
}

// HTTPCaller calls the API with net/http.
type HTTPCaller struct {
	Client *http.Client
}

func (c HTTPCaller) Call(ctx context.Context, url string, body []byte) (*Response, error) { // want Call:"sends a POST request without an idempotency key"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("send: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	var r Response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if resp.StatusCode >= 500 {
		return nil, fmt.Errorf("server error: %d", resp.StatusCode)
	}
	return &r, nil
}

// RecordingCaller keeps the calls it is given, for dry runs.
type RecordingCaller struct {
	mu    sync.Mutex
	Calls [][]byte
}

func (c *RecordingCaller) Call(_ context.Context, _ string, body []byte) (*Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Calls = append(c.Calls, body)
	return &Response{OK: true}, nil
}

// RetryCaller retries failed calls of another Caller.
type RetryCaller struct {
	Caller      Caller
	MaxAttempts int
	StartDelay  time.Duration
	MaxDelay    time.Duration
}

var ErrAttempts = errors.New("max attempts reached")

func (r *RetryCaller) Call(ctx context.Context, url string, body []byte) (resp *Response, err error) {
	for i := 0; i < r.MaxAttempts; i++ {
		resp, err = r.Caller.Call(ctx, url, body) // related "botapi.go:87: retry loop" "botapi.go:44: sent here by HTTPCaller.Call" // want `a POST request is retried with no idempotency key; HTTPCaller.Call must send one made before the retries`
		if err == nil && resp.OK {
			return resp, nil
		}
		if err == nil {
			err = fmt.Errorf("api error %d: %s", resp.ErrorCode, resp.Description)
		}
		if i == r.MaxAttempts-1 {
			break
		}
		d := min(r.StartDelay<<i, r.MaxDelay)
		select {
		case <-ctx.Done():
			return nil, errors.Join(err, ctx.Err())
		case <-time.After(d/2 + rand.N(d/2+1)):
		}
	}
	return nil, errors.Join(err, ErrAttempts)
}

// ---- Not reported: every implementation of Fetcher only reads ----

type Fetcher interface {
	Fetch(ctx context.Context, url string) ([]byte, error)
}

type HTTPFetcher struct{ Client *http.Client }

func (f HTTPFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := f.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch %s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

func FetchRetrying(ctx context.Context, f Fetcher, url string) ([]byte, error) {
	var err error
	for i := range 4 {
		var b []byte
		if b, err = f.Fetch(ctx, url); err == nil {
			return b, nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second << i))))
	}
	return nil, err
}
