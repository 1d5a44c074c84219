// Package workerready: a CLI that waits for a freshly started build machine by asking its
// daemon for workers until it answers. The daemon's client is one gRPC call per attempt; gRPC
// replays a call only transparently (the server never saw it) or under a service config's
// retry policy, which this program does not set: no layer under the loop retries.
package workerready

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"example.com/workerctl"
	"google.golang.org/grpc"
)

type Machine struct {
	Addr     string
	Platform string
	client   *workerctl.Client
	log      *slog.Logger
}

func (m *Machine) connect(ctx context.Context) (*workerctl.Client, error) {
	if m.client != nil {
		return m.client, nil
	}
	c, err := workerctl.New(ctx, m.Addr, grpc.WithInsecure(), grpc.WithUserAgent("depotctl"))
	if err != nil {
		return nil, err
	}
	m.client = c
	return c, nil
}

// checkReady is one dial (cached) and one call.
func (m *Machine) checkReady(ctx context.Context) ([]*workerctl.WorkerInfo, error) {
	c, err := m.connect(ctx)
	if err != nil {
		return nil, err
	}
	workers, err := c.ListWorkers(ctx)
	if err != nil {
		return nil, err
	}
	if len(workers) == 0 {
		return nil, errors.New("no workers yet")
	}
	return workers, nil
}

// WaitReady asks again, with a jittered backoff, until the daemon answers or the attempts run out.
func (m *Machine) WaitReady(ctx context.Context) ([]*workerctl.WorkerInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	delay := 200 * time.Millisecond
	var lastErr error
	for attempt := 1; attempt <= 8; attempt++ {
		workers, err := m.checkReady(ctx)
		if err == nil {
			m.log.Info("machine ready", "addr", m.Addr, "workers", len(workers), "attempt", attempt)
			return workers, nil
		}
		lastErr = err
		m.log.Warn("machine not ready", "addr", m.Addr, "attempt", attempt, "err", err)
		wait := delay/2 + rand.N(delay/2+1)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s: %w (last error: %v)", m.Addr, ctx.Err(), lastErr)
		case <-time.After(wait):
		}
		delay = min(2*delay, 5*time.Second)
	}
	return nil, fmt.Errorf("machine %s not ready after 8 attempts: %w", m.Addr, lastErr)
}

// Platforms lists each worker's platform, retrying a failed listing three times.
func (m *Machine) Platforms(ctx context.Context) ([]string, error) {
	c, err := m.connect(ctx)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		callCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		workers, err := c.ListWorkers(callCtx)
		cancel()
		if err == nil {
			out := make([]string, 0, len(workers))
			for _, w := range workers {
				out = append(out, w.Platform)
			}
			return out, nil
		}
		if attempt == 2 {
			return nil, err
		}
		time.Sleep(time.Duration(attempt+1)*time.Second + rand.N(time.Second))
	}
}
