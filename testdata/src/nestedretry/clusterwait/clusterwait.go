// Package clusterwait waits for clusters of a platform whose API client retries 429s, 5xx
// answers and dropped connections itself. A poll that halts on every failure of the client's
// call (clusterops.Halt, which the helper's retry predicate reads as "stop") does not multiply
// its attempts; one that goes round on every failure does.
package clusterwait

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"nestedretry/clusterops"
)

// APIError is an answer of the platform's API that is not a success.
type APIError struct {
	StatusCode int
	ErrorCode  string
	Message    string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.StatusCode, e.ErrorCode, e.Message)
}

// apiClient sends the platform's requests, retrying what a retry can fix.
type apiClient struct {
	hc   *http.Client
	base string
}

func (c *apiClient) do(ctx context.Context, method, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	var last error
	for attempt := range 5 {
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode < 300 {
			defer resp.Body.Close()
			return json.NewDecoder(resp.Body).Decode(out)
		}
		if err == nil {
			msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
			resp.Body.Close()
			apiErr := &APIError{StatusCode: resp.StatusCode}
			_ = json.Unmarshal(msg, apiErr)
			if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
				return apiErr
			}
			err = apiErr
		}
		last = err
		wait := time.Duration(1<<attempt)*100*time.Millisecond + time.Duration(rand.Int64N(int64(100*time.Millisecond)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return last
}

// Cluster is a cluster's state.
type Cluster struct {
	ID    string `json:"cluster_id"`
	State string `json:"state"`
	Msg   string `json:"state_message"`
}

// Clusters is the clusters' API.
type Clusters struct{ c *apiClient }

// Get reads a cluster.
func (a *Clusters) Get(ctx context.Context, id string) (*Cluster, error) {
	var out Cluster
	if err := a.c.do(ctx, http.MethodGet, "/clusters/get?cluster_id="+id, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Start starts a cluster.
func (a *Clusters) Start(ctx context.Context, id string) error {
	return a.c.do(ctx, http.MethodPost, "/clusters/start", map[string]string{"cluster_id": id}, &struct{}{})
}

// ---- Not reported: the poll halts on every failure of Get ----

// WaitRunning waits until the cluster runs.
func (a *Clusters) WaitRunning(ctx context.Context, id string, timeout time.Duration) (*Cluster, error) {
	return clusterops.Poll[Cluster](ctx, timeout, func() (*Cluster, *clusterops.Err) {
		cl, err := a.Get(ctx, id)
		if err != nil {
			return nil, clusterops.Halt(err)
		}
		switch cl.State {
		case "RUNNING":
			return cl, nil
		case "ERROR", "TERMINATED":
			return nil, clusterops.Halt(fmt.Errorf("failed to reach RUNNING, got %s: %s", cl.State, cl.Msg))
		default:
			slog.Debug("cluster not running yet", "cluster", id, "state", cl.State)
			return nil, clusterops.Continues(cl.State)
		}
	})
}

var mu sync.Mutex

// ---- Not reported: goes round only on a conflict code and a state the poll reports, which the
// client never retries; every other failure halts ----

// EnsureRunning starts the cluster unless it runs, and waits for it.
func (a *Clusters) EnsureRunning(ctx context.Context, id string) error {
	mu.Lock()
	defer mu.Unlock()
	timeout := 20 * time.Minute
	return clusterops.Wait(ctx, timeout, func() *clusterops.Err {
		err := a.startIfNeeded(ctx, id, timeout)
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.ErrorCode == "INVALID_STATE" {
			slog.Debug("cluster started by another process", "cluster", id)
			return clusterops.Continue(apiErr)
		}
		if err != nil && strings.HasPrefix(err.Error(), "failed to reach") {
			return clusterops.Continue(err)
		}
		if err != nil {
			return clusterops.Halt(err)
		}
		return nil
	})
}

func (a *Clusters) startIfNeeded(ctx context.Context, id string, timeout time.Duration) error {
	cl, err := a.Get(ctx, id)
	if err != nil {
		return fmt.Errorf("get cluster: %w", err)
	}
	switch cl.State {
	case "RUNNING":
		return nil
	case "PENDING", "RESIZING", "RESTARTING":
		_, err = a.WaitRunning(ctx, id, timeout)
		return err
	case "TERMINATED":
		if err := a.Start(ctx, id); err != nil {
			return fmt.Errorf("start: %w", err)
		}
		_, err = a.WaitRunning(ctx, id, timeout)
		return err
	}
	return fmt.Errorf("cluster %s is in state %s", id, cl.State)
}

// ---- Reported: every failure of Get goes round, and the client retries those too ----

// WaitVisible waits until a new cluster can be read, whatever went wrong.
func (a *Clusters) WaitVisible(ctx context.Context, id string) (*Cluster, error) {
	return clusterops.Poll[Cluster](ctx, 10*time.Minute, func() (*Cluster, *clusterops.Err) {
		cl, err := a.Get(ctx, id) // related "clusterwait.go:176: outer retry callback" "clusterwait.go:47: inner retry loop" // want `retries around Clusters\.Get, which retries up to 5 times: attempts multiply; keep one layer`
		if err != nil {
			slog.Debug("cluster not readable yet", "cluster", id, "err", err)
			return nil, clusterops.Continue(err)
		}
		return cl, nil
	})
}
