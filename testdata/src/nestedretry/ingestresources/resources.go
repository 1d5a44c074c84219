// Package ingestresources keeps the storage resources an ingestion client uploads to, fetched
// from the service's management endpoint through the client the package is given.
package ingestresources

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v4"
)

const (
	retryCount             = 4
	defaultInitialInterval = time.Second
	defaultMultiplier      = 2
)

// ThrottledError is the management endpoint's answer when it throttles the caller.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string { return "throttled" }

type Dataset struct{ Rows [][]string }

// mgmter is the management client: the SDK's client in production, a fake in tests.
type mgmter interface {
	Mgmt(ctx context.Context, db, statement string) (Dataset, error)
}

type Manager struct {
	client    mgmter
	done      chan struct{}
	fetchLock sync.Mutex
	resources atomic.Value
	lastFetch atomic.Value
}

// New takes the management client: callers hand the SDK's.
func New(client mgmter) *Manager {
	m := &Manager{client: client, done: make(chan struct{})}
	go m.renew()
	return m
}

func (m *Manager) Close() { close(m.done) }

func initBackoff() backoff.BackOff {
	exp := backoff.NewExponentialBackOff()
	exp.InitialInterval = defaultInitialInterval
	exp.Multiplier = defaultMultiplier
	return backoff.WithMaxRetries(exp, retryCount)
}

// fetch asks for the resources, and again when the endpoint throttles it.
func (m *Manager) fetch(ctx context.Context) error {
	m.fetchLock.Lock()
	defer m.fetchLock.Unlock()
	var ds Dataset
	err := backoff.Retry(func() error {
		var err error
		ds, err = m.client.Mgmt(ctx, "NetDefaultDB", ".get ingestion resources")
		if err == nil {
			return nil
		}
		var throttled *ThrottledError
		if errors.As(err, &throttled) {
			return err // only throttling is retried
		}
		return backoff.Permanent(err)
	}, backoff.WithContext(initBackoff(), ctx))
	if err != nil {
		return fmt.Errorf("problem getting ingestion resources: %w", err)
	}
	m.resources.Store(ds)
	m.lastFetch.Store(time.Now())
	return nil
}

// fetchRetry runs fetch again on any failure, a throttling one included.
func (m *Manager) fetchRetry(ctx context.Context) error {
	attempts := 0
	for {
		select {
		case <-m.done:
			return nil
		default:
		}
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := m.fetch(ctx) // related "resources.go:86: outer retry loop" "resources.go:63: inner retry callback" // want `retries up to 5 times around Manager.fetch, which retries up to 5 times: up to 25 calls per request; keep one layer`
		cancel()
		if err != nil {
			attempts++
			if attempts > retryCount {
				return fmt.Errorf("failed to fetch ingestion resources: %w", err)
			}
			time.Sleep(10 * time.Second)
			continue
		}
		return nil
	}
}

func (m *Manager) renew() {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-m.done:
			return
		case <-t.C:
			_ = m.fetchRetry(context.Background())
		}
	}
}
