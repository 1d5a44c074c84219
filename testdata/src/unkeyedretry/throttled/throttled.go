// Package throttled is a DNS provider's API client whose Do sends a request once and sends it
// again only while the server answers 429 Too Many Requests (the loop's condition, tested at
// the top of each round): the server turned those requests away unprocessed, so nothing can
// be applied twice. A helper that also goes round on 5xx can repeat a create.
package throttled

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math/rand"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Limiter lets one request through per interval.
type Limiter struct {
	mu    sync.Mutex
	every time.Duration
	next  time.Time
}

// Wait blocks until the next request may go, or ctx ends.
func (l *Limiter) Wait(ctx context.Context) error {
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.every)
	l.mu.Unlock()
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type Client struct {
	Base    string
	Key     string
	Client  *http.Client
	Limiter *Limiter
	Logger  interface {
		LogRequest(*http.Request)
		LogResponse(*http.Response)
	}
}

type Record struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Data string `json:"data"`
	TTL  int    `json:"ttl"`
}

func (c *Client) newRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	buf := &bytes.Buffer{}
	if body != nil {
		if err := json.NewEncoder(buf).Encode(body); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, buf)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "sso-key "+c.Key)
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// Do sends req, and again after the wait the server asks for while it answers 429.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	if c.Logger != nil {
		c.Logger.LogRequest(req)
	}
	c.Limiter.Wait(req.Context())
	resp, err := c.Client.Do(req)
	if err != nil {
		return nil, err
	}
	// Several clients behind one address can still hit the limit.
	for i := 1; i < 3 && resp != nil && resp.StatusCode == http.StatusTooManyRequests; i++ {
		after, err := strconv.ParseInt(resp.Header.Get("Retry-After"), 10, 0)
		if err != nil {
			log.Printf("429 without a valid Retry-After: quota exceeded")
			break
		}
		jitter := rand.Int63n(after)
		afterSec := after + jitter/2
		sleep := time.Duration(afterSec) * time.Second
		time.Sleep(sleep)
		c.Limiter.Wait(req.Context())
		resp, err = c.Client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("after waiting for Retry-After: %w", err)
		}
	}
	if c.Logger != nil {
		c.Logger.LogResponse(resp)
	}
	return resp, nil
}

// doRetrying sends req, and again while the server answers 5xx.
func (c *Client) doRetrying(req *http.Request) (*http.Response, error) {
	resp, err := c.Client.Do(req)
	if err != nil {
		return nil, err
	}
	for i := 1; i < 3 && resp.StatusCode >= 500; i++ { // related "throttled.go:175: a POST request sent here" // want `the retry loop in Client\.doRetrying retries a POST request without an idempotency key, so a retry can repeat its effect`
		resp.Body.Close()
		time.Sleep(time.Duration(i)*time.Second + time.Duration(rand.Int63n(int64(time.Second))))
		resp, err = c.Client.Do(req)
		if err != nil {
			return nil, err
		}
	}
	return resp, nil
}

func check(resp *http.Response, want int, out any) error {
	defer resp.Body.Close()
	if resp.StatusCode != want {
		return fmt.Errorf("dns api: %s", resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// ---- Not reported: only turned-away requests are sent again ----

func (c *Client) AddRecords(ctx context.Context, zone string, recs []Record) error { // want AddRecords:"sends a PATCH request without an idempotency key"
	req, err := c.newRequest(ctx, http.MethodPatch, "/v1/domains/"+zone+"/records", recs)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("add records to %s: %w", zone, err)
	}
	return check(resp, http.StatusOK, nil)
}

func (c *Client) CreateZone(ctx context.Context, zone string) error { // want CreateZone:"sends POST /v1/domains without an idempotency key"
	req, err := c.newRequest(ctx, http.MethodPost, "/v1/domains", map[string]string{"domain": zone})
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("create zone %s: %w", zone, err)
	}
	return check(resp, http.StatusCreated, nil)
}

// ---- Reported ----

func (c *Client) CreateForward(ctx context.Context, zone, target string) error {
	req, err := c.newRequest(ctx, http.MethodPost, "/v1/domains/"+zone+"/forwards", map[string]string{"target": target})
	if err != nil {
		return err
	}
	resp, err := c.doRetrying(req)
	if err != nil {
		return fmt.Errorf("forward %s: %w", zone, err)
	}
	return check(resp, http.StatusCreated, nil)
}
