// Package growingdelay: a retry loop whose delay grows, computed the way services write it: a
// helper that multiplies a delay by a factor once per attempt, rounding up. It backs off
// without jitter; it does not wait a fixed delay.
package growingdelay

import (
	"context"
	"fmt"
	"log"
	"math"
	"net/http"
	"time"
)

type Store interface {
	PendingJobs(ctx context.Context, page, size int) ([]string, error)
}

type Manager struct {
	ctx            context.Context
	store          Store
	retryInitDelay time.Duration
	retryFactor    float64
	retryMaxDelay  time.Duration
	client         *http.Client
	endpoint       string
}

func (m *Manager) calcDelay(attempts int) time.Duration {
	delay := m.retryInitDelay
	for i := 0; i < attempts; i++ {
		delay = time.Duration(math.Ceil(float64(delay) * m.retryFactor))
	}
	if delay > m.retryMaxDelay {
		delay = m.retryMaxDelay
	}
	return delay
}

func (m *Manager) submit(ctx context.Context, job string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, m.endpoint+"/jobs/"+job, nil)
	if err != nil {
		return err
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// Resubmit sends every job again, retrying a failed submission with a growing delay.
func (m *Manager) Resubmit(jobs []string) error {
	for _, job := range jobs {
		errorAttempts := 0
		for {
			err := m.submit(m.ctx, job)
			if err == nil {
				break
			}
			if errorAttempts >= 8 {
				return fmt.Errorf("job %s: %w", job, err)
			}
			log.Printf("submitting %s failed (attempt %d): %v", job, errorAttempts, err)
			errorAttempts++
			time.Sleep(m.calcDelay(errorAttempts)) // related "growingdelay.go:60: retry loop" // want `retry loop backs off without jitter`
		}
	}
	return nil
}
