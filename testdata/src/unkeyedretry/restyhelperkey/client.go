package restyhelperkey

import (
	"context"
	"crypto/rand"
	"fmt"
	"log"
	"net/http"
	"sync"

	"github.com/go-resty/resty/v2"
)

// Client is one session of the account.
type Client struct {
	m        *Manager
	uid      string
	mu       sync.RWMutex
	accToken string
}

// NewClient starts a session on the manager's client.
func (m *Manager) NewClient(uid, acc string) *Client {
	return &Client{m: m, uid: uid, accToken: acc}
}

type requestFunc func(*resty.Request) (*resty.Response, error)

func (c *Client) do(ctx context.Context, fn requestFunc) error {
	res, err := c.doRes(ctx, fn)
	if err != nil {
		return err
	}
	if res.IsError() {
		return fmt.Errorf("api: status %d", res.StatusCode())
	}
	return nil
}

func (c *Client) doRes(ctx context.Context, fn requestFunc) (*resty.Response, error) {
	res, err := c.exec(ctx, fn)
	if err != nil {
		log.Printf("request failed: %v", err)
		return nil, err
	}
	if res.StatusCode() == http.StatusUnauthorized {
		return nil, fmt.Errorf("session expired")
	}
	return res, nil
}

func (c *Client) exec(ctx context.Context, fn requestFunc) (*resty.Response, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.m.r(ctx)
	r.SetHeader("Idempotency-Key", rand.Text())
	if c.uid != "" {
		r.SetHeader("x-session-uid", c.uid)
	}
	if c.accToken != "" {
		r.SetAuthToken(c.accToken)
	}
	return fn(r)
}
