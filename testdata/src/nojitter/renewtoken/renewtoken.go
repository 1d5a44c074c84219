// Package renewtoken keeps a secret store's token alive: a timer fires at half the token's
// lease, the token is renewed, and the timer is set again from the new lease.
package renewtoken

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strings"
	"time"
)

type lease struct {
	Renewable     bool `json:"renewable"`
	LeaseDuration int  `json:"lease_duration"`
}

type client struct {
	http  *http.Client
	addr  string
	token string
}

func (c *client) renewSelf(increment int) (*lease, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	body := strings.NewReader(fmt.Sprintf(`{"increment":%d}`, increment))
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.addr+"/v1/auth/token/renew-self", body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Vault-Token", c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("renew: %s", resp.Status)
	}
	var out struct {
		Auth *lease `json:"auth"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	if out.Auth == nil {
		return nil, errors.New("renew: no auth in answer")
	}
	return out.Auth, nil
}

// ---- Reported ----

// keepAlive renews the token at half its lease; a failed renewal is tried again a fixed
// second later, for as long as it fails.
func (c *client) keepAlive(ttl time.Duration, increment int) {
	timer := time.NewTimer(ttl / 2)
	for range timer.C { // related "renewtoken.go:63: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		l, err := c.renewSelf(increment)
		if err != nil {
			log.Printf("[WARN] token: cannot renew: %s", err)
			timer.Reset(time.Second) // related "renewtoken.go:63: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		if !l.Renewable || l.LeaseDuration == 0 {
			return
		}
		timer.Reset(time.Duration(l.LeaseDuration) * time.Second / 2)
	}
}

// ---- Not reported ----

// refresh re-reads a configuration on its schedule: a failure waits for the next run.
func (c *client) refresh(interval time.Duration, apply func(*lease)) {
	timer := time.NewTimer(interval)
	for range timer.C {
		l, err := c.renewSelf(0)
		if err != nil {
			log.Printf("[WARN] refresh: %s", err)
			timer.Reset(interval)
			continue
		}
		apply(l)
		if !l.Renewable {
			return
		}
		timer.Reset(interval)
	}
}
