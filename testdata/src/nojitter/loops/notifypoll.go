package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// A job queue whose workers ask a broker for the next job. When there is none, a worker waits
// for the queue to be told of a new job, or for the next tick of the queue's ticker: it waits
// for work to arrive, not out a failure.

var errNoJob = errors.New("no job in queue")

type queuedJob struct {
	ID      string          `json:"id"`
	Payload json.RawMessage `json:"payload"`
}

type brokerWorker interface {
	Request() (*queuedJob, error)
}

type httpJobWorker struct {
	hc  *http.Client
	url string
}

func (w *httpJobWorker) Request() (*queuedJob, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.url+"/next", nil)
	if err != nil {
		return nil, err
	}
	resp, err := w.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNoContent {
		return nil, errNoJob
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("next job: %s", resp.Status)
	}
	var j queuedJob
	if err := json.NewDecoder(resp.Body).Decode(&j); err != nil {
		return nil, err
	}
	return &j, nil
}

type jobQueue struct {
	mu     sync.Mutex
	worker brokerWorker
	notify chan struct{}
	quit   chan struct{}
	every  time.Duration
}

func newJobQueue(w brokerWorker) *jobQueue {
	return &jobQueue{worker: &httpJobWorker{hc: &http.Client{Timeout: 15 * time.Second}, url: "http://broker"}, notify: make(chan struct{}, 1), quit: make(chan struct{}), every: time.Second}
}

// Queue tells a waiting worker that a job arrived.
func (q *jobQueue) Queue() {
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

func (q *jobQueue) Stop() { close(q.quit) }

// ---- Not reported: it waits for a job, or the next tick ----

func (q *jobQueue) next() (*queuedJob, error) {
	ticker := time.NewTicker(q.every)
	defer ticker.Stop()
	for {
		j, err := q.worker.Request()
		if err == nil {
			return j, nil
		}
		select {
		case <-q.quit:
			return nil, err
		case <-ticker.C:
		case <-q.notify:
		}
	}
}

// ---- Reported: only the tick ends the wait ----

func (q *jobQueue) nextByTick() (*queuedJob, error) {
	ticker := time.NewTicker(q.every) // related "notifypoll.go:104: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	defer ticker.Stop()
	for {
		j, err := q.worker.Request()
		if err == nil {
			return j, nil
		}
		select {
		case <-q.quit:
			return nil, err
		case <-ticker.C:
		}
	}
}
