// Package statuserr is the HTTP layer of a cloud database SDK: every request goes through
// retry-go, which tries again only what the retry condition accepts.
package statuserr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"

	retry "github.com/avast/retry-go/v4"
)

// HTTPError is the answer of the API when it is not a success.
type HTTPError struct {
	Name       string
	Method     string
	StatusCode int
	Body       []byte
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%s: %s failed with %d: %s", e.Name, e.Method, e.StatusCode, e.Body)
}

type Client struct {
	base        string
	http        *http.Client
	logger      *log.Logger
	maxAttempts uint
	retries     bool
}

func New(base, key, secret string) *Client {
	return &Client{base: base, http: &http.Client{Timeout: time.Minute}, logger: log.Default(), maxAttempts: 10, retries: true}
}

func (c *Client) Post(ctx context.Context, name, path string, in, out any) error { // want Post:`sends a POST request without an idempotency key`
	return c.withRetries(ctx, http.MethodPost, name, path, in, out)
}

func (c *Client) Get(ctx context.Context, name, path string, out any) error {
	return c.withRetries(ctx, http.MethodGet, name, path, nil, out)
}

// ---- Not reported: only a 429 is tried again, and the server did nothing with that request ----

func (c *Client) withRetries(ctx context.Context, method, name, path string, in, out any) error {
	return retry.Do(func() error {
		return c.send(ctx, method, name, path, in, out)
	},
		retry.Attempts(c.maxAttempts),
		retry.Delay(time.Second),
		retry.MaxDelay(30*time.Second),
		retry.RetryIf(func(err error) bool {
			if !c.retries {
				return false
			}
			var target *HTTPError
			if errors.As(err, &target) && target.StatusCode == http.StatusTooManyRequests {
				c.logger.Println("status code 429 received, request will be retried")
				return true
			}
			return false
		}),
		retry.LastErrorOnly(true),
		retry.Context(ctx),
	)
}

func (c *Client) send(ctx context.Context, method, name, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		buf := new(bytes.Buffer)
		if err := json.NewEncoder(buf).Encode(in); err != nil {
			return fmt.Errorf("encode request for %s: %w", name, err)
		}
		body = buf
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return fmt.Errorf("request to %s: %w", name, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode > 299 {
		b, _ := io.ReadAll(resp.Body)
		return &HTTPError{Name: name, Method: method, StatusCode: resp.StatusCode, Body: b}
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// ---- Reported: a 5xx is tried again too, and the server may have acted on that request ----

func (c *Client) CreateBackup(ctx context.Context, db string) error {
	return retry.Do(func() error {
		return c.send(ctx, http.MethodPost, "create backup", "/databases/"+db+"/backups", map[string]string{"database": db}, nil) // related "statuserr.go:111: retry callback" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	},
		retry.Attempts(c.maxAttempts),
		retry.Delay(time.Second),
		retry.RetryIf(func(err error) bool {
			var target *HTTPError
			return errors.As(err, &target) && (target.StatusCode == http.StatusTooManyRequests || target.StatusCode >= 500)
		}),
		retry.Context(ctx),
	)
}
