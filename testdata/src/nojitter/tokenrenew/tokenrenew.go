// Package tokenrenew keeps a machine identity's access token fresh in the background. The
// loop renews the token when it is about to expire and then sleeps until the next renewal is
// due, or a second when renewal is off: every way round waits, on one side of the test or the
// other, so a failed renewal does not make it spin. A loop that goes round at once after a
// failed renewal does.
package tokenrenew

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"nojitter/tokenrenew/waitutil"
)

type token struct {
	Value     string `json:"accessToken"`
	ExpiresIn int64  `json:"expiresIn"`
	fetched   time.Time
}

type Client struct {
	hc          *http.Client
	base        string
	id, secret  string
	autoRefresh bool
	log         *slog.Logger

	mu  sync.RWMutex
	tok token
}

func New(base, id, secret string, log *slog.Logger) *Client {
	return &Client{hc: &http.Client{Timeout: 15 * time.Second}, base: base, id: id, secret: secret, autoRefresh: true, log: log}
}

func (c *Client) login(ctx context.Context) error {
	form := url.Values{"clientId": {c.id}, "clientSecret": {c.secret}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v1/auth/login", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("tokenrenew: login: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("tokenrenew: login: %s", resp.Status)
	}
	var t token
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return err
	}
	t.fetched = time.Now()
	c.mu.Lock()
	c.tok = t
	c.mu.Unlock()
	return nil
}

func (c *Client) expiringSoon(buffer time.Duration) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return time.Since(c.tok.fetched)+buffer >= time.Duration(c.tok.ExpiresIn)*time.Second
}

func (c *Client) untilRenewal(buffer time.Duration) time.Duration {
	c.mu.RLock()
	defer c.mu.RUnlock()
	left := time.Duration(c.tok.ExpiresIn)*time.Second - time.Since(c.tok.fetched) - buffer
	if left <= 0 {
		return time.Second
	}
	return left
}

// Keep runs until ctx ends.
func (c *Client) Keep(ctx context.Context) {
	const buffer = 30 * time.Second
	for {
		select {
		case <-ctx.Done():
			return
		default:
		}
		if c.autoRefresh {
			if c.expiringSoon(buffer) {
				if err := c.login(ctx); err != nil {
					c.log.Debug("background renewal failed", "err", err)
				}
			}
			if err := waitutil.Sleep(ctx, c.untilRenewal(buffer)); err != nil {
				return
			}
		} else {
			if err := waitutil.Sleep(ctx, time.Second); err != nil {
				return
			}
		}
	}
}

// KeepEager goes round at once when a renewal fails.
func (c *Client) KeepEager(ctx context.Context) {
	const buffer = 30 * time.Second
	for { // related "tokenrenew.go:115: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		select {
		case <-ctx.Done():
			return
		default:
		}
		if c.expiringSoon(buffer) {
			if err := c.login(ctx); err != nil {
				c.log.Debug("background renewal failed", "err", err)
				continue
			}
		}
		if err := waitutil.Sleep(ctx, c.untilRenewal(buffer)); err != nil {
			return
		}
	}
}
