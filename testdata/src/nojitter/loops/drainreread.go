package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// A reader that wraps a remote feed and keeps the messages whose processing failed, to hand
// them out again. When the feed ends, Read marks the feed closed and calls itself once more:
// with the flag set, the retry list hands out what is pending instead of reading the feed.
// The second call asks for something else; it is no retry of the first (not reported). A
// Read that calls itself again on the end of the feed without changing anything is.

var errFeedEnded = errors.New("end of feed")

type feedMsg struct {
	ID   string          `json:"id"`
	Body json.RawMessage `json:"body"`
}

type feedReader struct {
	hc   *http.Client
	url  string
	mu   sync.Mutex
	left []feedMsg
}

// next asks the feed for its next message; errFeedEnded when it has none left.
func (f *feedReader) next(ctx context.Context, read bool) (feedMsg, error) {
	f.mu.Lock()
	if len(f.left) > 0 {
		m := f.left[0]
		f.left = f.left[1:]
		f.mu.Unlock()
		return m, nil
	}
	f.mu.Unlock()
	if !read {
		return feedMsg{}, errFeedEnded
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
	if err != nil {
		return feedMsg{}, err
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		return feedMsg{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNoContent {
		return feedMsg{}, errFeedEnded
	}
	var m feedMsg
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return feedMsg{}, fmt.Errorf("decode feed message: %w", err)
	}
	return m, nil
}

type drainingReader struct {
	feed   *feedReader
	closed int32
}

// Read returns the next message; at the feed's end it switches to draining, once.
func (r *drainingReader) Read(ctx context.Context) (feedMsg, error) {
	m, err := r.feed.next(ctx, atomic.LoadInt32(&r.closed) == 0)
	if err != nil {
		if errors.Is(err, errFeedEnded) && atomic.LoadInt32(&r.closed) == 0 {
			atomic.StoreInt32(&r.closed, 1)
			return r.Read(ctx)
		}
		return feedMsg{}, err
	}
	return m, nil
}

type rereadingReader struct {
	feed *feedReader
}

// Read asks the feed again at once whenever it has ended, for ever.
func (r *rereadingReader) Read(ctx context.Context) (feedMsg, error) { // related "drainreread.go:91: retrying recursion" // want `retrying function Read goes round without waiting, so it hammers a failing dependency; wait with jitter`
	m, err := r.feed.next(ctx, true)
	if err != nil {
		if errors.Is(err, errFeedEnded) {
			return r.Read(ctx)
		}
		return feedMsg{}, err
	}
	return m, nil
}
