// Package ticketdesk opens tickets in a help desk's REST API for alerts that fire, retrying
// when the desk is briefly unavailable.
package ticketdesk

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// Client talks to the desk.
type Client struct {
	base  string
	token string
	hc    *http.Client
	log   *slog.Logger
}

// New returns a client for the desk at base; its connections skip verification when insecure.
func New(base, token string, insecure bool, log *slog.Logger) *Client {
	return &Client{
		base:  base,
		token: token,
		hc: &http.Client{
			Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: insecure}},
		},
		log: log,
	}
}

// errUnavailable marks an answer worth another attempt.
var errUnavailable = errors.New("ticketdesk: unavailable")

// Ticket is what the desk creates.
type Ticket struct {
	ID      string `json:"id,omitempty"`
	Title   string `json:"title"`
	Details string `json:"details"`
}

// Open creates a ticket for an alert, trying up to five times.
func (c *Client) Open(ctx context.Context, title, details string) (*Ticket, error) {
	var last error
	for attempt := 0; attempt < 5; attempt++ {
		t, err := c.create(ctx, Ticket{Title: title, Details: details}) // related "ticketdesk.go:51: retry loop" "ticketdesk.go:80: sent here by create" // want `POST /api/tickets is retried with no idempotency key; create must send one made before the retries`
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, errUnavailable) {
			return nil, err
		}
		last = err
		c.log.Warn("desk unavailable", "attempt", attempt, "err", err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt+1) * time.Second):
		}
	}
	return nil, fmt.Errorf("opening ticket: %w", last)
}

func (c *Client) create(ctx context.Context, t Ticket) (*Ticket, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/tickets", bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	body, err := c.do(req)
	if err != nil {
		return nil, err
	}
	var out Ticket
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("decoding ticket: %w", err)
	}
	return &out, nil
}

func (c *Client) do(req *http.Request) ([]byte, error) {
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusBadGateway:
		return nil, fmt.Errorf("%w: %s", errUnavailable, resp.Status)
	case resp.StatusCode/100 != 2:
		return nil, fmt.Errorf("desk: %s: %s", resp.Status, bytes.TrimSpace(body))
	}
	return body, nil
}
