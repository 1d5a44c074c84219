// Package condpoll is an operator's reconcile helper that re-reads a custom resource through a
// callback deciding whether to look again. The callbacks that wait for pod addresses ignore the
// read's error: they poll a state, at an interval, and retry no failure (not reported). The
// helper whose callback goes round on the read's error retries it at a fixed interval
// (reported).
package condpoll

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Installation is the custom resource.
type Installation struct {
	Name   string
	Status struct {
		Pods   []string
		PodIPs []string
		Phase  string
	}
}

// Controller reads installations from the API server.
type Controller struct {
	api string
	hc  *http.Client
}

// New returns a controller of the API at api.
func New(api string) *Controller {
	return &Controller{api: api, hc: &http.Client{Timeout: 10 * time.Second}}
}

func (c *Controller) get(ctx context.Context, name string) (*Installation, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.api+"/installations/"+name, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: status %d", name, resp.StatusCode)
	}
	var in Installation
	if err := json.NewDecoder(resp.Body).Decode(&in); err != nil {
		return nil, err
	}
	return &in, nil
}

// poll reads the installation until f says to stop, 15 s apart.
func (c *Controller) poll(ctx context.Context, name string, f func(cur *Installation, err error) bool) {
	for {
		cur, err := c.get(ctx, name)
		if f(cur, err) {
			if ctx.Err() != nil {
				slog.Info("reconcile aborted while polling", "name", name)
				return
			}
			time.Sleep(15 * time.Second)
		} else {
			return
		}
	}
}

// waitForIPAddresses waits, up to a minute, for every pod of the installation to have an address.
func (c *Controller) waitForIPAddresses(ctx context.Context, name string, podIPs func() []string) {
	start := time.Now()
	c.poll(ctx, name, func(cur *Installation, _ error) bool {
		ips := podIPs()
		if cur != nil && len(ips) >= len(cur.Status.Pods) {
			slog.Info("all IP addresses are in place", "name", name)
			return false
		}
		if time.Since(start) > time.Minute {
			slog.Warn("not all IP addresses are in place, time is up", "name", name)
			return false
		}
		return true
	})
}

// waitForCompleted waits until the installation's phase says it is done.
func (c *Controller) waitForCompleted(ctx context.Context, name string) {
	c.poll(ctx, name, func(cur *Installation, e error) bool {
		return cur == nil || cur.Status.Phase != "Completed"
	})
}

// fetch reads the installation, asking again while the read fails.
func (c *Controller) fetch(ctx context.Context, name string, again func(err error) bool) (*Installation, error) {
	for {
		cur, err := c.get(ctx, name)
		if again(err) {
			slog.Warn("read failed, again in 15s", "name", name, "err", err)
			time.Sleep(15 * time.Second) // related "condpoll.go:101: retry loop" // want `retry loop waits a fixed 15s between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		return cur, err
	}
}

// Load reads an installation, again while the API server fails.
func (c *Controller) Load(ctx context.Context, name string) (*Installation, error) {
	return c.fetch(ctx, name, func(err error) bool { return err != nil && ctx.Err() == nil })
}
