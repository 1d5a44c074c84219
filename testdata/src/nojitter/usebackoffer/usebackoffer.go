// Package usebackoffer retries region lookups through the library's Backoffer, whose waits are
// made by a function value from its configuration: the loop waits, with jitter, between
// attempts.
package usebackoffer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"nojitter/backoffer"
)

type Region struct {
	ID     uint64 `json:"id"`
	Leader string `json:"leader"`
}

type Cache struct {
	hc      *http.Client
	pdAddrs []string
}

func (c *Cache) LoadRegion(ctx context.Context, key string) (*Region, error) {
	bo := backoffer.NewBackoffer(ctx, 20000)
	for attempt := 0; ; attempt++ {
		addr := c.pdAddrs[attempt%len(c.pdAddrs)]
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, addr+"/regions/"+key, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode == http.StatusOK {
			var r Region
			err = json.NewDecoder(resp.Body).Decode(&r)
			resp.Body.Close()
			if err != nil {
				return nil, fmt.Errorf("decode region: %w", err)
			}
			return &r, nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("pd answered %d", resp.StatusCode)
		}
		if berr := bo.Backoff(backoffer.BoRPC, err); berr != nil {
			return nil, fmt.Errorf("load region %s: %w (last: %v)", key, berr, err)
		}
	}
}

// ---- Not reported: the Backoffer's sleep budget ends the loop, though its context never does ----

type operator struct {
	Desc   string `json:"desc"`
	Status string `json:"status"`
}

func (c *Cache) operatorOf(ctx context.Context, regionID uint64) (*operator, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/operators/%d", c.pdAddrs[0], regionID), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("pd answered %s", resp.Status)
	}
	var op operator
	if err := json.NewDecoder(resp.Body).Decode(&op); err != nil {
		return nil, fmt.Errorf("decode operator: %w", err)
	}
	return &op, nil
}

// InScattering reports whether a region is still being scattered.
func (c *Cache) InScattering(regionID uint64) (bool, error) {
	bo := backoffer.NewBackoffer(context.Background(), 20000)
	for {
		op, err := c.operatorOf(context.Background(), regionID)
		if err == nil {
			return op.Desc == "scatter-region" && op.Status == "RUNNING", nil
		}
		slog.Warn("get operator failed", "region", regionID, "err", err)
		if err = bo.Backoff(backoffer.BoRPC, errors.New(err.Error())); err != nil {
			return true, err
		}
	}
}

// ---- Reported: a wait that gives up only when its context ends, and the context never does ----

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("wait: %w", ctx.Err())
	case <-t.C:
		return nil
	}
}

// Watch waits until a region has a leader.
func (c *Cache) Watch(regionID uint64) error {
	ctx := context.Background()
	for attempt := 1; ; attempt++ { // related "usebackoffer.go:117: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		op, err := c.operatorOf(ctx, regionID)
		if err == nil && op.Status != "" {
			return nil
		}
		slog.Warn("get operator failed", "region", regionID, "attempt", attempt, "err", err)
		if err := sleepCtx(ctx, time.Duration(attempt)*100*time.Millisecond+time.Duration(rand.IntN(100))*time.Millisecond); err != nil {
			return err
		}
	}
}
