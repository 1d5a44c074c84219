// Package appwait: a deployment API's client whose request helper retries reads on a
// connection reset, and whose callers wait with a backoff helper for an app, a listing or a
// health check. The helper's callback says what goes round by what it returns: an error, or
// one marked permanent. Attempts multiply only where both layers go round on the same failure.
package appwait

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"slices"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// APIError is an answer of the API with a status outside 2xx.
type APIError struct {
	Status  int
	Message string
}

func (e *APIError) Error() string { return fmt.Sprintf("deploy api: %d %s", e.Status, e.Message) }

// Is matches any answer with the target's status: errors.Is(err, ErrNotFound) for every 404.
func (e *APIError) Is(target error) bool {
	t, ok := target.(*APIError)
	return ok && t.Status == e.Status
}

// ErrNotFound is any 404 answer.
var ErrNotFound = &APIError{Status: http.StatusNotFound}

type Client struct {
	hc    *http.Client
	base  string
	token string
	agent string
}

type App struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

type Service struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

// do sends one request; a read is sent again on a connection reset, at most twice more.
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	send := func() error {
		var body bytes.Buffer
		if in != nil {
			if err := json.NewEncoder(&body).Encode(in); err != nil {
				return backoff.Permanent(err)
			}
		}
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, &body)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", c.agent)
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 300 {
			var msg struct {
				Error string `json:"error"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&msg)
			return &APIError{Status: resp.StatusCode, Message: msg.Error}
		}
		if out == nil {
			return nil
		}
		return json.NewDecoder(resp.Body).Decode(out)
	}
	if method != http.MethodGet {
		return send()
	}
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 100 * time.Millisecond
	b.MaxInterval = 500 * time.Millisecond
	return backoff.Retry(func() error {
		err := send()
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.ECONNRESET):
			log.Printf("%s %s: connection reset, again", method, path)
			return err
		default:
			return backoff.Permanent(err)
		}
	}, backoff.WithContext(backoff.WithMaxRetries(b, 2), ctx))
}

// wait runs op with exponential backoff for up to a minute.
func wait(ctx context.Context, op func() error) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 200 * time.Millisecond
	b.MaxElapsedTime = time.Minute
	return backoff.Retry(op, backoff.WithContext(b, ctx))
}

// ---- Not reported: the outer layer goes round on answers the inner one never retries ----

// WaitForApp waits for a new app to show up (404) and for its token to be accepted (401);
// any other failure ends the wait.
func (c *Client) WaitForApp(ctx context.Context, name string) (*App, error) {
	var app App
	op := func() error {
		err := c.do(ctx, http.MethodGet, "/apps/"+url.PathEscape(name), nil, &app)
		if err == nil {
			return nil
		}
		if apiErr, ok := err.(*APIError); ok && slices.Contains([]int{http.StatusNotFound, http.StatusUnauthorized}, apiErr.Status) {
			log.Printf("app %s not visible yet: %v", name, err)
			return err
		}
		return backoff.Permanent(err)
	}
	if err := wait(ctx, op); err != nil {
		return nil, fmt.Errorf("waiting for app %s: %w", name, err)
	}
	return &app, nil
}

// Services lists an app's services, waiting out the 404 of a listing not made yet.
func (c *Client) Services(ctx context.Context, app string) ([]Service, error) {
	var services []Service
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 5 * time.Second
	err := backoff.Retry(func() error {
		err := c.do(ctx, http.MethodGet, "/apps/"+url.PathEscape(app)+"/services", nil, &services)
		if err != nil {
			if errors.Is(err, ErrNotFound) {
				return err
			}
			return backoff.Permanent(err)
		}
		return nil
	}, backoff.WithContext(b, ctx))
	if err != nil {
		return nil, fmt.Errorf("listing services of %s: %w", app, err)
	}
	return services, nil
}

// Restarted waits out the 5xx answers of a service that restarts: the helper's resets are
// transport failures, which this layer marks permanent.
func (c *Client) Restarted(ctx context.Context, app, id string) error {
	return wait(ctx, func() error {
		var svc Service
		err := c.do(ctx, http.MethodGet, "/apps/"+url.PathEscape(app)+"/services/"+url.PathEscape(id), nil, &svc)
		var apiErr *APIError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &apiErr) && apiErr.Status >= 500:
			return err
		}
		return backoff.Permanent(err)
	})
}

// ---- Reported: the outer layer goes round on what the inner one retries ----

// WaitHealthy goes round on any error, connection resets included, which do retries already.
func (c *Client) WaitHealthy(ctx context.Context, app string) error {
	return wait(ctx, func() error {
		var health struct {
			OK bool `json:"ok"`
		}
		if err := c.do(ctx, http.MethodGet, "/apps/"+url.PathEscape(app)+"/health", nil, &health); err != nil { // related "appwait.go:183: outer retry callback" "appwait.go:96: inner retry callback" // want `retries around Client.do, which retries up to 3 times: attempts multiply on transport errors; keep one layer`
			return err
		}
		if !health.OK {
			return fmt.Errorf("app %s not healthy yet", app)
		}
		return nil
	})
}

// Refresh goes round on a reset too, or on a 404.
func (c *Client) Refresh(ctx context.Context, app string) (*App, error) {
	var got App
	err := wait(ctx, func() error {
		err := c.do(ctx, http.MethodGet, "/apps/"+url.PathEscape(app), nil, &got) // related "appwait.go:200: outer retry callback" "appwait.go:96: inner retry callback" // want `retries around Client.do, which retries up to 3 times: attempts multiply on transport errors; keep one layer`
		if err == nil {
			return nil
		}
		if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, ErrNotFound) {
			return err
		}
		return backoff.Permanent(err)
	})
	return &got, err
}
