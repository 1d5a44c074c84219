// Package retryingdo: an SDK whose Do(req, v) retries a request that can be sent again (it has
// GetBody) in a backoff.Retry callback, on transport errors and 5xx; with retries switched off it
// sends it once. Its callers build the request with the method: a POST sent through it without a
// key can be repeated.
package retryingdo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Client struct {
	base       string
	httpClient *http.Client
	noRetry    bool
}

func (c *Client) NewRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

func (c *Client) Do(req *http.Request, v any) (*http.Response, error) { // want Do:`resends the request of parameter 1 in backoff.Retry in retryingdo.Client.Do \(retryingdo.go:50\)`
	var resp *http.Response
	var err error
	if req.GetBody != nil && !c.noRetry {
		bck := backoff.NewExponentialBackOff()
		bck.InitialInterval = 200 * time.Millisecond
		bck.MaxElapsedTime = 10 * time.Second
		err = backoff.Retry(func() error { // related "retryingdo.go:100: POST /v2/tokens sent here", "retryingdo.go:146: POST /v2/annotations sent here" // want `backoff\.Retry in Client\.Do retries POST /v2/tokens and 1 other request without a key: a retry can repeat their effect`
			resp, err = c.httpClient.Do(req)
			switch {
			case errors.Is(err, context.Canceled):
				return backoff.Permanent(err)
			case err != nil:
				body, resetErr := req.GetBody()
				if resetErr != nil {
					return backoff.Permanent(resetErr)
				}
				req.Body = body
				return err
			}
			if resp.StatusCode >= 500 {
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if req.Body, err = req.GetBody(); err != nil {
					return backoff.Permanent(err)
				}
				return fmt.Errorf("got status code %d", resp.StatusCode)
			}
			return nil
		}, bck)
	} else {
		resp, err = c.httpClient.Do(req)
	}
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

type Token struct {
	ID string `json:"id"`
}

// ---- Reported ----

func (c *Client) CreateToken(ctx context.Context, name string) (*Token, error) {
	req, err := c.NewRequest(ctx, http.MethodPost, "/v2/tokens", map[string]string{"name": name})
	if err != nil {
		return nil, err
	}
	var t Token
	if _, err := c.Do(req, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// ---- Not reported: a read, and a create sent with a key ----

func (c *Client) ListTokens(ctx context.Context) ([]Token, error) {
	req, err := c.NewRequest(ctx, http.MethodGet, "/v2/tokens", nil)
	if err != nil {
		return nil, err
	}
	var ts []Token
	if _, err := c.Do(req, &ts); err != nil {
		return nil, err
	}
	return ts, nil
}

func (c *Client) CreateMonitor(ctx context.Context, name, idempotencyKey string) (*Token, error) {
	req, err := c.NewRequest(ctx, http.MethodPost, "/v2/monitors", map[string]string{"name": name})
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", idempotencyKey)
	var t Token
	if _, err := c.Do(req, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// Call makes the request with the caller's method and sends it through Do.
func (c *Client) Call(ctx context.Context, method, path string, body, v any) error {
	req, err := c.NewRequest(ctx, method, path, body)
	if err != nil {
		return err
	}
	_, err = c.Do(req, v)
	return err
}

// ---- Reported (with CreateToken): a create sent through Call ----

func (c *Client) CreateAnnotation(ctx context.Context, title string) error {
	return c.Call(ctx, http.MethodPost, "/v2/annotations", map[string]string{"title": title}, nil)
}

// ---- Not reported: a delete through Call ----

func (c *Client) DeleteAnnotation(ctx context.Context, id string) error {
	return c.Call(ctx, http.MethodDelete, "/v2/annotations/"+id, nil, nil)
}
