// Package taskqueue runs tasks that a scheduler hands out. The Scheduler interface is
// exported, but the queue's scheduler field is set only by this package: to the in-memory
// FIFO for local queues, to the HTTP-backed one for shared queues.
package taskqueue

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

var ErrEmpty = errors.New("no task due")

type Task struct {
	ID     string
	Due    int64
	Kind   string
	Params map[string]string
}

// Scheduler hands out the next task that is due.
type Scheduler interface {
	Push(t *Task) error
	Request() (*Task, error)
}

type taskHeap []*Task

func (h taskHeap) Len() int           { return len(h) }
func (h taskHeap) Less(i, j int) bool { return h[i].Due < h[j].Due }
func (h taskHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *taskHeap) Push(x any)        { *h = append(*h, x.(*Task)) }
func (h *taskHeap) Pop() any {
	old := *h
	n := len(old)
	x := old[n-1]
	*h = old[:n-1]
	return x
}

// fifo keeps the tasks in memory.
type fifo struct {
	mu    sync.Mutex
	tasks taskHeap
}

func NewFIFO() Scheduler { return &fifo{} }

func (f *fifo) Push(t *Task) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	heap.Push(&f.tasks, t)
	return nil
}

func (f *fifo) Request() (*Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.tasks) == 0 || f.tasks[0].Due > time.Now().Unix() {
		return nil, ErrEmpty
	}
	return heap.Pop(&f.tasks).(*Task), nil
}

// remoteScheduler asks a coordinator over HTTP.
type remoteScheduler struct {
	hc  *http.Client
	url string
}

func newRemote(url string) Scheduler {
	return &remoteScheduler{hc: &http.Client{Timeout: 10 * time.Second}, url: url}
}

func (r *remoteScheduler) Push(t *Task) error { return errors.New("push to the coordinator's API") }

func (r *remoteScheduler) Request() (*Task, error) {
	resp, err := r.hc.Get(r.url + "/next")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNoContent {
		return nil, ErrEmpty
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("next task: %s", resp.Status)
	}
	var t Task
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return nil, err
	}
	return &t, nil
}

type Queue struct {
	scheduler Scheduler
	interval  time.Duration
	quit      chan struct{}
	tasks     chan *Task
}

// NewLocal makes a queue whose tasks stay in this process.
func NewLocal() *Queue {
	return &Queue{scheduler: NewFIFO(), interval: time.Second, quit: make(chan struct{}), tasks: make(chan *Task)}
}

// NewShared makes a queue whose tasks a coordinator hands out.
func NewShared(url string) *Queue {
	return &Queue{scheduler: newRemote(url), interval: time.Second, quit: make(chan struct{}), tasks: make(chan *Task)}
}

// next waits for the next due task: it asks the scheduler, which may be the coordinator's,
// and waits a fixed interval when nothing is due or the request failed: reported.
func (q *Queue) next() (*Task, bool) {
	for {
		t, err := q.scheduler.Request()
		if err == nil {
			return t, true
		}
		if !errors.Is(err, ErrEmpty) {
			slog.Warn("request task", "err", err)
		}
		select {
		case <-q.quit:
			return nil, false
		case <-time.After(q.interval): // related "taskqueue.go:122: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		}
	}
}

// LocalQueue is a queue that only ever holds the in-memory FIFO.
type LocalQueue struct {
	scheduler Scheduler
	interval  time.Duration
	quit      chan struct{}
}

func NewLocalQueue() *LocalQueue {
	return &LocalQueue{scheduler: NewFIFO(), interval: time.Second, quit: make(chan struct{})}
}

// Next polls the in-memory heap for a due task: nothing leaves the process, not reported.
func (q *LocalQueue) Next(ctx context.Context) (*Task, error) {
	for {
		t, err := q.scheduler.Request()
		if err == nil {
			return t, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-q.quit:
			return nil, errors.New("queue closed")
		case <-time.After(q.interval):
		}
	}
}
