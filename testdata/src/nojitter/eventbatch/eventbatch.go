// Package eventbatch flushes queued analytics events to a collector. The sender behind an
// interface says, beside its error, whether the failure is worth another try: the loop that
// calls it goes round on that flag.
package eventbatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"sync"
	"time"
)

type Event struct {
	Type   string            `json:"type"`
	Action string            `json:"action"`
	Data   map[string]string `json:"data"`
}

// Sender sends a batch of events.
type Sender interface {
	Send(apiKey, host string, events []Event) (canRetry bool, err error)
}

type httpSender struct{ client *http.Client }

func (s *httpSender) Send(apiKey, host string, events []Event) (canRetry bool, err error) {
	body, err := json.Marshal(events)
	if err != nil {
		return false, fmt.Errorf("encode events: %w", err)
	}
	req, err := http.NewRequest(http.MethodPost, host+"/v3/events", bytes.NewReader(body))
	if err != nil {
		return false, fmt.Errorf("events request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", apiKey)
	resp, err := s.client.Do(req)
	if err != nil {
		return true, fmt.Errorf("send events: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return false, fmt.Errorf("send events: %s", resp.Status)
	}
	if resp.StatusCode >= 500 {
		return true, fmt.Errorf("send events: %s", resp.Status)
	}
	return false, nil
}

const (
	maxRetries    = 3
	firstInterval = 200 * time.Millisecond
	maxInterval   = time.Second
)

func retryInterval(n int) time.Duration {
	return min(firstInterval*time.Duration(1<<n), maxInterval)
}

type Manager struct {
	mu     sync.Mutex
	sender Sender
	apiKey string
	host   string
	queue  []Event
	batch  int
}

func New(apiKey, host string) *Manager {
	return &Manager{sender: &httpSender{client: &http.Client{Timeout: 10 * time.Second}}, apiKey: apiKey, host: host, batch: 10}
}

// ---- Reported: the retries back off without jitter ----

func (m *Manager) Flush() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(m.queue) > 0 {
		n := min(m.batch, len(m.queue))
		batch := m.queue[:n]
		retries := 0
		for retries < maxRetries {
			canRetry, err := m.sender.Send(m.apiKey, m.host, batch)
			if !canRetry {
				if err != nil {
					log.Printf("dropping %d events: %v", n, err)
				}
				break
			}
			retries++
			if retries < maxRetries {
				time.Sleep(retryInterval(retries - 1)) // related "eventbatch.go:86: retry loop" // want `retry loop backs off without jitter`
			}
		}
		m.queue = m.queue[n:]
	}
}
