// Package schedqueue runs jobs at their next fire time. Its job queue is an interface: by
// default an in-memory heap, which a user may replace (WithQueue). The execution loop waits a
// fixed interval after the queue fails to answer; the default queue never leaves the process,
// and the default is what most users run, and the package offers no other queue, so that wait
// is not a retry of a remote dependency. The same loop over a queue whose default is kept in a
// remote store is.
package schedqueue

import (
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

type Job struct {
	Key    string    `json:"key"`
	FireAt time.Time `json:"fireAt"`
}

// Queue holds the scheduled jobs.
type Queue interface {
	Push(Job) error
	Head() (Job, error)
	Size() (int, error)
}

type jobHeap []Job

func (h jobHeap) Len() int           { return len(h) }
func (h jobHeap) Less(i, j int) bool { return h[i].FireAt.Before(h[j].FireAt) }
func (h jobHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *jobHeap) Push(x any)        { *h = append(*h, x.(Job)) }
func (h *jobHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	*h = old[:len(old)-1]
	return j
}

type memQueue struct {
	mu sync.Mutex
	h  jobHeap
}

func newMemQueue() *memQueue { return &memQueue{} }

func (q *memQueue) Push(j Job) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	heap.Push(&q.h, j)
	return nil
}

func (q *memQueue) Head() (Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.h) == 0 {
		return Job{}, errors.New("schedqueue: empty")
	}
	return q.h[0], nil
}

func (q *memQueue) Size() (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.h), nil
}

type Option func(*Scheduler)

// WithQueue replaces the in-memory queue.
func WithQueue(q Queue) Option { return func(s *Scheduler) { s.queue = q } }

type Scheduler struct {
	queue     Queue
	retryWait time.Duration
	interrupt chan struct{}
	log       *slog.Logger
	run       func(context.Context, Job)
}

func New(run func(context.Context, Job), log *slog.Logger, opts ...Option) *Scheduler {
	s := &Scheduler{queue: newMemQueue(), retryWait: 100 * time.Millisecond, interrupt: make(chan struct{}, 1), log: log, run: run}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *Scheduler) nextTick() time.Duration {
	j, err := s.queue.Head()
	if err != nil {
		return s.retryWait
	}
	return time.Until(j.FireAt)
}

// Loop fires jobs until ctx ends.
func (s *Scheduler) Loop(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		n, err := s.queue.Size()
		switch {
		case err != nil:
			s.log.Error("queue size", "err", err)
			timer.Reset(s.retryWait)
		case n == 0:
			timer.Reset(time.Hour)
		default:
			timer.Reset(s.nextTick())
		}
		select {
		case <-timer.C:
			if j, err := s.queue.Head(); err == nil {
				s.run(ctx, j)
			}
		case <-s.interrupt:
		case <-ctx.Done():
			return
		}
	}
}

// storeQueue keeps the jobs in a shared job store over HTTP.
type storeQueue struct {
	hc   *http.Client
	base string
}

func (q *storeQueue) get(path string, out any) error {
	resp, err := q.hc.Get(q.base + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("schedqueue: %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func (q *storeQueue) Head() (Job, error) {
	var j Job
	return j, q.get("/jobs/head", &j)
}

func (q *storeQueue) Size() (int, error) {
	var n struct {
		Size int `json:"size"`
	}
	return n.Size, q.get("/jobs/size", &n)
}

// SharedQueue is a queue others may read.
type SharedQueue interface {
	Head() (Job, error)
	Size() (int, error)
}

// Shared is a scheduler over the shared store, unless given another queue.
type Shared struct {
	queue     SharedQueue
	retryWait time.Duration
	log       *slog.Logger
	run       func(context.Context, Job)
}

func NewShared(base string, run func(context.Context, Job), log *slog.Logger, q SharedQueue) *Shared {
	s := &Shared{queue: &storeQueue{hc: &http.Client{Timeout: 5 * time.Second}, base: base}, retryWait: 100 * time.Millisecond, log: log, run: run}
	if q != nil {
		s.queue = q
	}
	return s
}

// Loop fires jobs until ctx ends.
func (s *Shared) Loop(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		n, err := s.queue.Size()
		switch {
		case err != nil:
			s.log.Error("queue size", "err", err)
			timer.Reset(s.retryWait) // related "schedqueue.go:187: long-running loop" // want `long-running loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		case n == 0:
			timer.Reset(time.Minute)
		default:
			timer.Reset(time.Second)
		}
		select {
		case <-timer.C:
			if j, err := s.queue.Head(); err == nil {
				s.run(ctx, j)
			}
		case <-ctx.Done():
			return
		}
	}
}
