package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// A client that keeps an access token fresh in the background: it sleeps until shortly before
// the token expires, then logs in again. When the login fails, it sets the next wait to a fixed
// second: every client that failed together tries again together.

type tokenKeeper struct {
	mu       sync.Mutex
	hc       *http.Client
	url      string
	user     string
	password string
	token    string
	expiry   time.Time
}

func (k *tokenKeeper) login(ctx context.Context) error {
	form := fmt.Sprintf(`{"user":%q,"password":%q}`, k.user, k.password)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, k.url+"/login", strings.NewReader(form))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := k.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("login: %s", resp.Status)
	}
	var out struct {
		Token string `json:"token"`
		TTL   int    `json:"ttl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return err
	}
	k.mu.Lock()
	k.token, k.expiry = out.Token, time.Now().Add(time.Duration(out.TTL)*time.Second)
	k.mu.Unlock()
	return nil
}

func (k *tokenKeeper) untilRefresh() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	return time.Until(k.expiry) - 5*time.Second
}

// ---- Reported: the failure side chooses a fixed wait ----

func (k *tokenKeeper) keepFresh(ctx context.Context) {
	go func() {
		wait := k.untilRefresh()
		for {
			time.Sleep(wait) // related "tokenrefresh.go:68: long-running loop" // want `long-running loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
			if err := k.login(ctx); err != nil {
				log.Printf("token refresh failed: %v", err)
				wait = time.Second
			} else {
				wait = k.untilRefresh()
			}
		}
	}()
}

// ---- Not reported: the failure side chooses a random wait ----

func (k *tokenKeeper) keepFreshJittered(ctx context.Context) {
	go func() {
		wait := k.untilRefresh()
		for {
			time.Sleep(wait)
			if err := k.login(ctx); err != nil {
				log.Printf("token refresh failed: %v", err)
				wait = time.Second/2 + rand.N(time.Second)
			} else {
				wait = k.untilRefresh()
			}
		}
	}()
}

// ---- Not reported: the same interval whatever happened (a poll's pace) ----

func (k *tokenKeeper) keepFreshEvery(ctx context.Context, every time.Duration) {
	go func() {
		var wait time.Duration
		for {
			time.Sleep(wait)
			if err := k.login(ctx); err != nil {
				log.Printf("token refresh failed: %v", err)
				wait = every
			} else {
				wait = every
			}
		}
	}()
}
