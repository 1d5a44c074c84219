// Package recursion holds a chat SDK whose request helper calls itself after a 429 or a 5xx.
package recursion

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

type bucket struct {
	mu        sync.Mutex
	remaining int
	reset     time.Time
}

type Client struct {
	hc      *http.Client
	base    string
	token   string
	mu      sync.Mutex
	buckets map[string]*bucket
}

func (c *Client) bucketFor(route string) *bucket {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.buckets[route]
	if !ok {
		b = &bucket{remaining: 1}
		c.buckets[route] = b
	}
	return b
}

// request sends one request; on 429 or 5xx it waits and calls itself with a fresh bucket.
func (c *Client) request(ctx context.Context, method, route string, body []byte, b *bucket) ([]byte, error) { // related "recursion.go:85: a POST request sent here" // want `the retrying function request retries a POST request without an idempotency key, so a retry can repeat its effect`
	b.mu.Lock()
	if b.remaining == 0 && time.Now().Before(b.reset) {
		time.Sleep(time.Until(b.reset))
	}
	b.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, method, c.base+route, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bot "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusOK, http.StatusCreated, http.StatusNoContent:
		return data, nil
	case http.StatusTooManyRequests:
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		time.Sleep(time.Duration(secs) * time.Second)
		return c.request(ctx, method, route, body, c.bucketFor(route))
	case http.StatusBadGateway, http.StatusServiceUnavailable:
		time.Sleep(time.Second)
		return c.request(ctx, method, route, body, c.bucketFor(route))
	default:
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(data, &e)
		return nil, fmt.Errorf("%s %s: %d %s", method, route, resp.StatusCode, e.Message)
	}
}

func (c *Client) SendMessage(ctx context.Context, channel, text string) error {
	body, _ := json.Marshal(map[string]string{"content": text})
	route := "/channels/" + channel + "/messages"
	_, err := c.request(ctx, http.MethodPost, route, body, c.bucketFor(route))
	return err
}

type session struct {
	hc    *http.Client
	base  string
	login string
}

// token fetches a new access token from the identity service.
func (s *session) token(ctx context.Context) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/oauth/token", bytes.NewBufferString("grant_type=client_credentials&client_id="+s.login))
	if err != nil {
		return ""
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.hc.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var t struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return ""
	}
	return t.AccessToken
}

// get sends once more with a token fetched again after a 401: it changes what it sends, a
// recovery, not a retry.
func (s *session) get(ctx context.Context, path, token string, fresh bool) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized && !fresh {
		return s.get(ctx, path, s.token(ctx), true)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: %d", path, resp.StatusCode)
	}
	return io.ReadAll(resp.Body)
}

// list follows the next page the answer names: a walk, not a retry.
func (s *session) list(ctx context.Context, url string, acc []string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var page struct {
		Items []string `json:"items"`
		Next  string   `json:"next"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		return nil, err
	}
	acc = append(acc, page.Items...)
	if page.Next == "" {
		return acc, nil
	}
	return s.list(ctx, page.Next, acc)
}

// A helper that builds and sends, and goes round only when the server refused for the rate
// limit (429: not applied): a POST through it is not repeated after it took effect.
type Notifier struct {
	hc   *http.Client
	base string
}

func (n *Notifier) call(ctx context.Context, method, path string, payload any) error {
	body, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, n.base+path, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := n.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests {
			if resp.StatusCode >= 300 {
				return fmt.Errorf("%s %s: %d", method, path, resp.StatusCode)
			}
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * time.Second)
	}
	return fmt.Errorf("%s %s: rate limited", method, path)
}

func (n *Notifier) Notify(ctx context.Context, user, text string) error { // want Notify:"sends a POST request without an idempotency key"
	return n.call(ctx, http.MethodPost, "/users/"+user+"/notifications", map[string]string{"text": text})
}

// The same helper going round on 5xx too: the POST can be repeated.
type Ledger struct {
	hc   *http.Client
	base string
}

func (l *Ledger) call(ctx context.Context, method, path string, payload any) error {
	body, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ { // related "recursion.go:238: a POST request sent here" // want `the retry loop in Ledger.call retries a POST request without an idempotency key, so a retry can repeat its effect`
		req, err := http.NewRequestWithContext(ctx, method, l.base+path, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := l.hc.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		resp.Body.Close()
		if resp.StatusCode < 500 {
			if resp.StatusCode >= 300 {
				return fmt.Errorf("%s %s: %d", method, path, resp.StatusCode)
			}
			return nil
		}
		lastErr = fmt.Errorf("%s %s: %d", method, path, resp.StatusCode)
		time.Sleep(time.Duration(attempt+1) * time.Second)
	}
	return lastErr
}

func (l *Ledger) Record(ctx context.Context, account string, cents int64) error {
	return l.call(ctx, http.MethodPost, "/accounts/"+account+"/entries", map[string]int64{"cents": cents})
}

func (l *Ledger) Balance(ctx context.Context, account string) error {
	return l.call(ctx, http.MethodGet, "/accounts/"+account+"/balance", nil)
}
