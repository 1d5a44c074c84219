// A chat SDK whose request helper calls itself after a 429 (waiting as told) or a 502/503
// (waiting a fixed second). The wait for the rate-limit bucket at the top is the server's.
package loops

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

type rateBucket struct {
	mu        sync.Mutex
	remaining int
	reset     time.Time
}

type chatClient struct {
	hc      *http.Client
	base    string
	token   string
	mu      sync.Mutex
	buckets map[string]*rateBucket
}

func (c *chatClient) bucketFor(route string) *rateBucket {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.buckets[route]
	if !ok {
		b = &rateBucket{remaining: 1}
		c.buckets[route] = b
	}
	return b
}

// request sends one request; on 429 or 5xx it waits and calls itself with a fresh bucket.
func (c *chatClient) request(ctx context.Context, method, route string, body []byte, b *rateBucket) ([]byte, error) {
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
		time.Sleep(time.Second) // related "ratebucket.go:43: retrying recursion" // want `retrying function request waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
		return c.request(ctx, method, route, body, c.bucketFor(route))
	default:
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(data, &e)
		return nil, fmt.Errorf("%s %s: %d %s", method, route, resp.StatusCode, e.Message)
	}
}

func (c *chatClient) SendMessage(ctx context.Context, channel, text string) error {
	body, _ := json.Marshal(map[string]string{"content": text})
	route := "/channels/" + channel + "/messages"
	_, err := c.request(ctx, http.MethodPost, route, body, c.bucketFor(route))
	return err
}

type tokenSession struct {
	hc    *http.Client
	base  string
	login string
}

// token fetches a new access token from the identity service.
func (s *tokenSession) token(ctx context.Context) string {
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
func (s *tokenSession) get(ctx context.Context, path, token string, fresh bool) ([]byte, error) {
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
func (s *tokenSession) list(ctx context.Context, url string, acc []string) ([]string, error) {
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
