// Package enqueuewait replicates entries to a follower. Appending to the local log hands the
// entry to the log's goroutine, with a timeout on the handoff: the timer bounds the enqueue,
// it is no pause between attempts: the loop goes round at once.
package enqueuewait

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// ErrEnqueueTimeout is returned when the log's goroutine does not take an entry in time.
var ErrEnqueueTimeout = errors.New("timed out enqueuing entry")

type entry struct {
	data []byte
	done chan error
}

// Log is an append-only log served by one goroutine.
type Log struct {
	appendCh   chan *entry
	shutdownCh chan struct{}
}

// Append hands data to the log's goroutine, waiting at most timeout for it to take it.
func (l *Log) Append(data []byte, timeout time.Duration) (<-chan error, error) {
	var timer <-chan time.Time
	if timeout > 0 {
		timer = time.After(timeout)
	}
	e := &entry{data: data, done: make(chan error, 1)}
	select {
	case <-timer:
		return nil, ErrEnqueueTimeout
	case <-l.shutdownCh:
		return nil, errors.New("log is shut down")
	case l.appendCh <- e:
		return e.done, nil
	}
}

// Replicator sends entries to a follower.
type Replicator struct {
	log      *Log
	hc       *http.Client
	follower string
}

// Replicate appends data locally and ships it to the follower, five times at most (each
// round appends again: the follower deduplicates by position).
func (r *Replicator) Replicate(data []byte) error {
	var last error
	for attempt := 0; attempt < 5; attempt++ { // related "enqueuewait.go:57: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		done, err := r.log.Append(data, 500*time.Millisecond)
		if err != nil {
			last = err
			slog.Warn("append failed", "attempt", attempt, "err", err)
			continue
		}
		if err := <-done; err != nil {
			return fmt.Errorf("local append: %w", err)
		}
		resp, err := r.hc.Post(r.follower+"/entries", "application/octet-stream", bytes.NewReader(data))
		if err != nil {
			last = err
			slog.Warn("shipping failed", "attempt", attempt, "err", err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNoContent {
			return nil
		}
		return fmt.Errorf("follower answered %s", resp.Status)
	}
	return last
}
