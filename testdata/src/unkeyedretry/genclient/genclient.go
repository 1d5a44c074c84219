// Package genclient is the shared core of a generated API client: it prepares requests for the
// API packages and sends them, retrying on 429 and 5xx.
package genclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/url"
	"time"
)

type RetryConfig struct {
	Enabled    bool
	MaxRetries int
	Timeout    time.Duration
}

type Config struct {
	Host       string
	HTTPClient *http.Client
	Retry      RetryConfig
	Debug      bool
	UserAgent  string
}

func NewConfig() *Config {
	return &Config{
		Host:       "https://api.example.com",
		HTTPClient: &http.Client{Timeout: 60 * time.Second},
		Retry:      RetryConfig{Enabled: true, MaxRetries: 3, Timeout: time.Minute},
		UserAgent:  "genapi/1.4",
	}
}

type APIClient struct {
	Cfg *Config
}

func New(cfg *Config) *APIClient { return &APIClient{Cfg: cfg} }

// PrepareRequest builds the request for one API operation.
func (c *APIClient) PrepareRequest(ctx context.Context, path, method string, body any, headers map[string]string, query url.Values) (*http.Request, error) {
	u, err := url.Parse(c.Cfg.Host + path)
	if err != nil {
		return nil, err
	}
	u.RawQuery = query.Encode()
	var req *http.Request
	if body != nil {
		buf := &bytes.Buffer{}
		if err := json.NewEncoder(buf).Encode(body); err != nil {
			return nil, fmt.Errorf("encoding body: %w", err)
		}
		req, err = http.NewRequest(method, u.String(), buf)
	} else {
		req, err = http.NewRequest(method, u.String(), nil)
	}
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		req.Header.Add(k, v)
	}
	req.Header.Set("User-Agent", c.Cfg.UserAgent)
	if ctx != nil {
		req = req.WithContext(ctx)
	}
	return req, nil
}

// CallAPI sends the request, retrying on 429 and 5xx when retries are enabled.
func (c *APIClient) CallAPI(request *http.Request) (*http.Response, error) { // want CallAPI:`resends the request of parameter 1 in the retry loop in genclient.APIClient.CallAPI \(genclient.go:88\)`
	var raw []byte
	if request.Body != nil && request.Body != http.NoBody {
		raw, _ = io.ReadAll(request.Body)
		request.Body.Close()
	}
	ctx, cancel := context.WithTimeout(request.Context(), c.Cfg.Retry.Timeout)
	defer cancel()
	n := 0
	for {
		again := copyRequest(request, &raw)
		resp, err := c.Cfg.HTTPClient.Do(again)
		if err != nil {
			return resp, err
		}
		if c.Cfg.Debug {
			log.Printf("%s %s: %d", again.Method, again.URL, resp.StatusCode)
		}
		wait, retry := c.shouldRetry(resp, n)
		if !retry {
			return resp, nil
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return nil, errors.Join(ctx.Err(), fmt.Errorf("status %d", resp.StatusCode))
		case <-time.After(wait):
			n++
		}
	}
}

func (c *APIClient) shouldRetry(resp *http.Response, n int) (time.Duration, bool) {
	if !c.Cfg.Retry.Enabled || n >= c.Cfg.Retry.MaxRetries {
		return 0, false
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		d := time.Second << n
		return d/2 + rand.N(d/2), true
	}
	return 0, false
}

func copyRequest(r *http.Request, raw *[]byte) *http.Request {
	again := *r
	if r.Body == nil || r.Body == http.NoBody {
		return &again
	}
	again.Body = io.NopCloser(bytes.NewReader(*raw))
	return &again
}

// CallIdempotent sends the request, retrying only methods that are safe to repeat.
func (c *APIClient) CallIdempotent(request *http.Request) (*http.Response, error) {
	for n := 0; ; n++ {
		resp, err := c.Cfg.HTTPClient.Do(request)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if request.Method != http.MethodGet && request.Method != http.MethodPut || n >= c.Cfg.Retry.MaxRetries {
			return resp, err
		}
		if resp != nil {
			resp.Body.Close()
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second << n))))
	}
}

// Decode reads a JSON answer into v and closes the body.
func Decode(resp *http.Response, v any) error {
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}
