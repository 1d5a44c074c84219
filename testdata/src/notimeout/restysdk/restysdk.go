// Package restysdk is an SDK of a secrets API over resty v2. Its client is made by New without
// a timeout, and every API call goes through it: one cause, reported where the client is made.
package restysdk

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/go-resty/resty/v2"
)

// Config configures a Client.
type Config struct {
	BaseURL string
	Token   string
	Retries int
}

// Secret is a secret as the API returns it.
type Secret struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Version int    `json:"version"`
}

// APIError is an error the API answered with.
type APIError struct {
	Status  int
	Message string `json:"message"`
}

func (e *APIError) Error() string { return fmt.Sprintf("secrets: %d %s", e.Status, e.Message) }

// Client talks to the secrets API.
type Client struct {
	http *resty.Client
	cfg  Config
}

// New makes a client.
func New(cfg Config) *Client {
	c := &Client{cfg: cfg}
	rc := resty.New() // related "restysdk.go:63: Client.GetSecret sends a request with its caller's context through it" related "restysdk.go:81: Request.Post sends a request without a context through it" related "restysdk.go:95: Client.Versions sends a request with its caller's context through it" // want `this resty\.Client has no timeout \(SetTimeout\), so a stalled server hangs Request\.Get \(and 2 other calls\)`
	c.http = rc.SetBaseURL(cfg.BaseURL).
		SetHeader("User-Agent", "restysdk/1.0")
	if cfg.Retries > 0 {
		c.http.SetRetryCount(cfg.Retries)
	}
	return c
}

// GetSecret reads a secret with the caller's context.
func (c *Client) GetSecret(ctx context.Context, name string) (*Secret, error) {
	var out Secret
	var apiErr APIError
	resp, err := c.http.R().
		SetContext(ctx).
		SetHeader("Authorization", "Bearer "+c.cfg.Token).
		SetHeader("Accept", "application/json").
		SetResult(&out).
		Get("/v1/secrets/" + name)
	if err != nil {
		return nil, fmt.Errorf("get secret %s: %w", name, err)
	}
	if resp.IsError() {
		apiErr.Status = resp.StatusCode()
		return nil, &apiErr
	}
	return &out, nil
}

// CreateSecret stores a secret; the request has no context.
func (c *Client) CreateSecret(s Secret) (*Secret, error) {
	var out Secret
	req := c.http.R().
		SetHeader("Authorization", "Bearer "+c.cfg.Token).
		SetBody(s)
	req.SetResult(&out)
	resp, err := req.Post("/v1/secrets")
	if err != nil {
		log.Printf("secrets: create %s: %v", s.Name, err)
		return nil, err
	}
	if resp.IsError() {
		return nil, errors.New("secrets: create failed")
	}
	return &out, nil
}

// Versions parses its answer (SetDoNotParseResponse(false) says so): no stream.
func (c *Client) Versions(ctx context.Context, name string) ([]Secret, error) {
	var out []Secret
	if _, err := c.http.R().SetContext(ctx).SetDoNotParseResponse(false).SetResult(&out).Get("/v1/secrets/" + name + "/versions"); err != nil {
		return nil, err
	}
	return out, nil
}
