// Package relogin is a hypervisor API's client that logs in again when the server refuses its
// ticket: a request answered 401 or 403 makes a new session (POST /access/ticket with the
// credentials) and is sent once more. A task's status is polled in a loop: the loop repeats a
// GET, and the login a refusal brings with it only hands the client a new ticket, so nothing
// is created twice. A clone retried while the node is busy is a POST that is repeated.
package relogin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"time"
)

type Credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
	Realm    string `json:"realm"`
}

type Session struct {
	Ticket    string `json:"ticket"`
	CSRFToken string `json:"CSRFPreventionToken"`
}

type Client struct {
	hc        *http.Client
	base      string
	creds     *Credentials
	mu        sync.Mutex
	session   *Session
	expiresAt time.Time
	log       *log.Logger
}

func New(base string, creds *Credentials, logger *log.Logger) *Client {
	return &Client{hc: &http.Client{Timeout: 30 * time.Second}, base: base, creds: creds, log: logger}
}

var (
	ErrNotAuthorized = errors.New("relogin: not authorized")
	ErrSessionExists = errors.New("relogin: session exists")
	ErrTimeout       = errors.New("relogin: timed out")
)

// HTTPError is an answer outside 2xx.
type HTTPError struct {
	Status int
	Body   string
}

func (e *HTTPError) Error() string { return fmt.Sprintf("relogin: status %d: %s", e.Status, e.Body) }

func (c *Client) authHeaders(h http.Header) {
	if c.session == nil {
		return
	}
	h.Set("Cookie", "PVEAuthCookie="+c.session.Ticket)
	h.Set("CSRFPreventionToken", c.session.CSRFToken)
}

// Req sends one request and decodes the answer's data into v. When the server refuses the
// ticket, it logs in again and sends the request once more.
func (c *Client) Req(ctx context.Context, method, path string, data []byte, v any) error {
	var body io.Reader
	if data != nil {
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	c.authHeaders(req.Header)
	res, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden {
		if path == "/access/ticket" {
			return ErrNotAuthorized
		}
		if c.creds != nil {
			err = c.CreateSession(ctx)
			if err != nil {
				if errors.Is(err, ErrSessionExists) {
					return ErrNotAuthorized // a fresh ticket was refused: no use trying again
				}
				return err
			}
			return c.Req(ctx, method, path, data, v)
		}
		return ErrNotAuthorized
	}
	if res.StatusCode >= 400 {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		return &HTTPError{Status: res.StatusCode, Body: string(b)}
	}
	if v == nil {
		return nil
	}
	return json.NewDecoder(res.Body).Decode(&struct {
		Data any `json:"data"`
	}{Data: v})
}

func (c *Client) Get(ctx context.Context, path string, v any) error {
	return c.Req(ctx, http.MethodGet, path, nil, v)
}

func (c *Client) Post(ctx context.Context, path string, d, v any) error { // want Post:"sends a POST request without an idempotency key"
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return c.Req(ctx, http.MethodPost, path, data, v)
}

// CreateSession exchanges the credentials for a new ticket, unless the current one is fresh.
func (c *Client) CreateSession(ctx context.Context) error { // want CreateSession:"sends a POST request without an idempotency key"
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session != nil && time.Now().Before(c.expiresAt) {
		return ErrSessionExists
	}
	s, err := c.Ticket(ctx, c.creds)
	if err != nil {
		return err
	}
	c.session, c.expiresAt = s, time.Now().Add(time.Hour)
	return nil
}

func (c *Client) Ticket(ctx context.Context, creds *Credentials) (*Session, error) { // want Ticket:"sends a POST request without an idempotency key"
	var s Session
	if err := c.Post(ctx, "/access/ticket", creds, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Task is a job the hypervisor runs.
type Task struct {
	UPID       string `json:"upid"`
	Node       string `json:"node"`
	Status     string `json:"status"`
	ExitStatus string `json:"exitstatus"`
	client     *Client
}

func (t *Task) Ping(ctx context.Context) error {
	return t.client.Get(ctx, fmt.Sprintf("/nodes/%s/tasks/%s/status", t.Node, t.UPID), t)
}

// Wait polls the task until it stops, for at most timeout.
func (t *Task) Wait(ctx context.Context, interval, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		if err := t.Ping(ctx); err != nil {
			t.client.log.Printf("task %s: ping: %v", t.UPID, err)
		} else if t.Status == "stopped" {
			if t.ExitStatus != "OK" {
				return fmt.Errorf("task %s: %s", t.UPID, t.ExitStatus)
			}
			return nil
		}
		if time.Now().After(deadline) {
			return ErrTimeout
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
}

// Clone clones a template, trying again while the node answers that it is busy.
func (c *Client) Clone(ctx context.Context, node string, id, newID int) (*Task, error) {
	var upid string
	for attempt := 0; attempt < 5; attempt++ {
		err := c.Post(ctx, fmt.Sprintf("/nodes/%s/qemu/%d/clone", node, id), map[string]int{"newid": newID}, &upid) // related "relogin.go:191: retry loop" "relogin.go:126: sent here by Post" // want `a POST request is retried with no idempotency key; Post must send one made before the retries`
		if err == nil {
			return &Task{UPID: upid, Node: node, client: c}, nil
		}
		var he *HTTPError
		if !errors.As(err, &he) || he.Status < 500 {
			return nil, err
		}
		c.log.Printf("clone %d on %s: %v (attempt %d)", id, node, err, attempt+1)
		time.Sleep(time.Duration(attempt+1) * time.Second)
	}
	return nil, fmt.Errorf("clone %d on %s: node busy", id, node)
}

// Charge creates a charge. When the ticket is refused it logs in, then sends the charge again,
// up to three times while the server answers 5xx: that loop repeats the POST.
func (c *Client) Charge(ctx context.Context, body []byte) error { // want Charge:"sends POST /charges without an idempotency key"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/charges", bytes.NewReader(body))
	if err != nil {
		return err
	}
	c.authHeaders(req.Header)
	res, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode == http.StatusUnauthorized {
		if err := c.CreateSession(ctx); err != nil {
			return err
		}
		for attempt := 0; attempt < 3; attempt++ {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/charges", bytes.NewReader(body)) // related "relogin.go:223: retry loop" "relogin.go:230: sent here" // want `POST /charges is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
			if err != nil {
				return err
			}
			req.Header.Set("Content-Type", "application/json")
			c.authHeaders(req.Header)
			res, err := c.hc.Do(req)
			if err == nil && res.StatusCode < 500 {
				res.Body.Close()
				return nil
			}
			c.log.Printf("charge: attempt %d: %v", attempt+1, err)
			time.Sleep(time.Duration(attempt+1) * 500 * time.Millisecond)
		}
		return errors.New("relogin: charge failed")
	}
	return nil
}
