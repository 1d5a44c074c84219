// Package apilogin is a vendor API client that signs in with an API key and sends the session
// token it gets back on every later request. Its sign-in POSTs are retried on 429 and 503: a
// repeat mints another session and changes nothing else, so they are not reported. The
// client's creating POSTs, retried the same way, are.
package apilogin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strconv"
	"time"
)

type session struct {
	AccessToken string    `json:"access_token"`
	ExpiresAt   time.Time `json:"expires_at"`
}

type order struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	Status  string `json:"status"`
}

type Client struct {
	hc        *http.Client
	base      string
	apiKey    string
	secret    string
	userAgent string
	logger    *log.Logger

	session *session // sent as auth-token on every request
	bearer  string   // sent as Authorization by the v2 endpoints
}

func New(base, apiKey, secret string) *Client {
	return &Client{
		hc:     &http.Client{Timeout: 30 * time.Second},
		base:   base,
		apiKey: apiKey,
		secret: secret,
		logger: log.Default(),
	}
}

var errRetryable = errors.New("retryable status")

func waitRetry(ctx context.Context, resp *http.Response, attempt int) error {
	d := time.Duration(attempt+1) * time.Second
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			d = time.Duration(n) * time.Second
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// login posts the API key for a session token, going round on 429 and 503; the token is
// stored in the client and sent as the auth-token header of every later request.
func (c *Client) login(ctx context.Context) error {
	if c.session != nil && time.Now().Before(c.session.ExpiresAt) {
		return nil
	}
	data, err := json.Marshal(map[string]string{"apiKey": c.apiKey, "secretKey": c.secret})
	if err != nil {
		return fmt.Errorf("encode login: %w", err)
	}
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/auth/v1/login", bytes.NewReader(data))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		if c.userAgent != "" {
			req.Header.Set("User-Agent", c.userAgent)
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return fmt.Errorf("login: %w", err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("read login answer: %w", err)
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			c.logger.Printf("login: status %d, attempt %d", resp.StatusCode, attempt+1)
			if err := waitRetry(ctx, resp, attempt); err != nil {
				return err
			}
			continue
		}
		if resp.StatusCode >= 300 {
			return fmt.Errorf("login: status %d: %s", resp.StatusCode, body)
		}
		var s session
		if err := json.Unmarshal(body, &s); err != nil {
			return fmt.Errorf("decode login answer: %w", err)
		}
		c.session = &s
		return nil
	}
	return errRetryable
}

// signIn exchanges the key for a bearer token of the v2 API, kept as a string.
func (c *Client) signIn(ctx context.Context) error {
	payload, err := json.Marshal(map[string]string{"key": c.apiKey})
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v2/signin", bytes.NewReader(payload))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			if err := waitRetry(ctx, resp, attempt); err != nil {
				return err
			}
			continue
		}
		var out struct {
			Token string `json:"token"`
			TTL   int    `json:"ttl"`
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("decode sign-in answer: %w", err)
		}
		c.bearer = out.Token
		return nil
	}
	return errRetryable
}

func (c *Client) newRequest(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	if err := c.login(ctx); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("auth-token", c.session.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

func (c *Client) newRequestV2(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	if err := c.signIn(ctx); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.bearer)
	return req, nil
}

// CreateOrder posts an order, going round on 503: a create whose answer is only read back
// (its version is sent as If-Match by UpdateOrder, a condition, not a credential).
func (c *Client) CreateOrder(ctx context.Context, sku string, qty int) (*order, error) {
	body, err := json.Marshal(map[string]any{"sku": sku, "qty": qty})
	if err != nil {
		return nil, err
	}
	for attempt := 0; attempt < 3; attempt++ {
		if err := c.login(ctx); err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body)) // related "apilogin.go:191: retry loop" "apilogin.go:201: sent here" // want `POST /v1/orders is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return nil, err
		}
		req.Header.Set("auth-token", c.session.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			resp.Body.Close()
			if err := waitRetry(ctx, resp, attempt); err != nil {
				return nil, err
			}
			continue
		}
		var o order
		err = json.NewDecoder(resp.Body).Decode(&o)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		return &o, nil
	}
	return nil, errRetryable
}

// UpdateOrder sends the order's version as a condition.
func (c *Client) UpdateOrder(ctx context.Context, o *order, status string) error {
	body, err := json.Marshal(map[string]string{"status": status})
	if err != nil {
		return err
	}
	req, err := c.newRequest(ctx, http.MethodPut, "/v1/orders/"+o.ID, body)
	if err != nil {
		return err
	}
	req.Header.Set("If-Match", o.Version)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("update order %s: status %d", o.ID, resp.StatusCode)
	}
	return nil
}

// StartExport posts an export job over the v2 API, going round on 5xx: a create.
func (c *Client) StartExport(ctx context.Context, format string) (string, error) {
	body, err := json.Marshal(map[string]string{"format": format})
	if err != nil {
		return "", err
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, err := c.newRequestV2(ctx, http.MethodPost, "/v2/exports", body)
		if err != nil {
			return "", err
		}
		resp, err := c.hc.Do(req) // related "apilogin.go:251: retry loop" // want `POST /v2/exports is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return "", err
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			if err := waitRetry(ctx, resp, attempt); err != nil {
				return "", err
			}
			continue
		}
		var job struct {
			ID string `json:"id"`
		}
		err = json.NewDecoder(resp.Body).Decode(&job)
		resp.Body.Close()
		if err != nil {
			return "", err
		}
		return job.ID, nil
	}
	return "", errRetryable
}
