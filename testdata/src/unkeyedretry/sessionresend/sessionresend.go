// Package sessionresend is an admin API client whose request helper sends again only when
// the server refused the session (401): the server did nothing, so sending again repeats no
// effect. Its status tests overlap (a 2xx leaves first, then "any other non-401 failure
// leaves"): the way round on a status that is not a failure cannot be taken.
package sessionresend

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// Client holds a session with the admin API.
type Client struct {
	hc      *http.Client
	base    string
	session string
}

// New returns a client.
func New(base, session string) *Client {
	return &Client{hc: &http.Client{Timeout: 30 * time.Second}, base: base, session: session}
}

// Rule is a firewall rule.
type Rule struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Action string `json:"action"`
}

// CreateRule creates a rule: not reported, it is sent again only after a 401.
func (c *Client) CreateRule(ctx context.Context, r Rule) (*Rule, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var resp *http.Response
	for attempt := 1; attempt <= 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/rules", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Session", c.session)
		resp, err = c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode <= 299 {
			break
		}
		if resp.StatusCode > 299 && resp.StatusCode != http.StatusUnauthorized {
			msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			return nil, fmt.Errorf("create rule: %s: %s", resp.Status, msg)
		}
		resp.Body.Close()
		slog.Warn("session refused, sending again", "attempt", attempt)
	}
	defer resp.Body.Close()
	var out Rule
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateGroup creates a group, sending again on any answer above 2xx but a 400: reported.
func (c *Client) CreateGroup(ctx context.Context, name string) error {
	body, err := json.Marshal(map[string]string{"name": name})
	if err != nil {
		return err
	}
	for attempt := 1; attempt <= 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/groups", bytes.NewReader(body)) // related "sessionresend.go:80: retry loop" "sessionresend.go:87: sent here" // want `POST /groups is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Session", c.session)
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode <= 299 {
			return nil
		}
		if resp.StatusCode > 299 && resp.StatusCode == http.StatusBadRequest {
			return fmt.Errorf("create group: %s", resp.Status)
		}
		slog.Warn("create group failed, sending again", "status", resp.StatusCode, "attempt", attempt)
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return fmt.Errorf("create group %s: no success after 3 attempts", name)
}
