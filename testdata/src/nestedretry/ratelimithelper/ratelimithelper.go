// Package ratelimithelper: a forge client whose every API call goes through a helper that waits
// out rate limits for as long as they last. The helper has no cap: it never hands a rate limit
// back, so a loop around it does not multiply its attempts.
package ratelimithelper

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

type rateLimited time.Duration

func (r rateLimited) Error() string { return fmt.Sprintf("rate limited for %s", time.Duration(r)) }

func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// withRateLimit runs fn again for as long as the forge says it is rate limited.
func withRateLimit[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	for tries := 1; ; tries++ {
		v, err := fn()
		if err == nil {
			return v, nil
		}
		var rl rateLimited
		switch {
		case errors.As(err, &rl):
			if err := pause(ctx, time.Duration(rl)); err != nil {
				return v, err
			}
		case strings.Contains(err.Error(), "secondary rate limit"):
			if err := pause(ctx, time.Duration(tries*tries)*time.Second); err != nil {
				return v, err
			}
		default:
			return v, err
		}
	}
}

type Repo struct {
	Owner string `json:"owner"`
	Name  string `json:"name"`
}

type Forge struct {
	base string
	hc   *http.Client
}

func (f *Forge) getRepo(ctx context.Context, owner, name string) (*Repo, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.base+"/repos/"+owner+"/"+name, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get repo: %w", err)
	}
	defer resp.Body.Close()
	if s := resp.Header.Get("Retry-After"); s != "" {
		if secs, err := strconv.Atoi(s); err == nil {
			return nil, rateLimited(time.Duration(secs) * time.Second)
		}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get repo %s/%s: %s", owner, name, resp.Status)
	}
	var r Repo
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, fmt.Errorf("decode repo: %w", err)
	}
	return &r, nil
}

// ---- Not reported: the helper never gives up on a rate limit; the loop polls for the fork ----

func (f *Forge) WaitForFork(ctx context.Context, owner, name string) (*Repo, error) {
	for i := 0; i < 10; i++ {
		repo, err := withRateLimit(ctx, func() (*Repo, error) {
			return f.getRepo(ctx, owner, name)
		})
		if err != nil {
			time.Sleep(3 * time.Second)
			continue
		}
		return repo, nil
	}
	return nil, errors.New("fork not ready in time")
}
