// Package attemptflag follows a remote event log over HTTP. The follower's loop hands each
// attempt to a method whose only result says whether to try again: true where a request or the
// stream failed in a way worth another try (it returns true only past such a failure, and
// hands the decision on to the handler of the stream's mode), false once the log ended or the
// caller gave up. The loop waits a fixed time before each attempt after the first.
package attemptflag

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Event is one entry of the log.
type Event struct {
	Seq  int64           `json:"seq"`
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// Config says where the log is and how the follower paces itself.
type Config struct {
	BaseURL    string
	Token      string
	RetryDelay time.Duration
	Follow     bool
}

// Follower reads a remote event log.
type Follower struct {
	cfg    Config
	client *http.Client
	logger *slog.Logger
}

// New returns a follower for cfg.
func New(cfg Config, logger *slog.Logger) *Follower {
	return &Follower{cfg: cfg, client: &http.Client{Timeout: 0}, logger: logger}
}

// ---- Reported: the wait before each new attempt is the same for every follower ----

// Events returns the log's events from seq on, and the errors met on the way.
func (f *Follower) Events(ctx context.Context, seq int64) (<-chan Event, <-chan error) {
	events := make(chan Event, 16)
	errs := make(chan error, 1)
	go func() {
		defer close(events)
		defer close(errs)
		first := true
		for {
			if !first {
				timer := time.NewTimer(f.cfg.RetryDelay) // related "attemptflag.go:58: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
				select {
				case <-ctx.Done():
					timer.Stop()
					return
				case <-timer.C:
				}
			}
			first = false
			if ctx.Err() != nil {
				return
			}
			again := f.attempt(ctx, &seq, events, errs)
			if !again {
				return
			}
		}
	}()
	return events, errs
}

// attempt opens the log at *seq and reads it; it reports whether to try again.
func (f *Follower) attempt(ctx context.Context, seq *int64, events chan<- Event, errs chan<- error) bool {
	q := url.Values{"since": {strconv.FormatInt(*seq, 10)}}
	if f.cfg.Follow {
		q.Set("follow", "true")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.cfg.BaseURL+"/v1/events?"+q.Encode(), nil)
	if err != nil {
		report(ctx, errs, err)
		return false
	}
	req.Header.Set("Authorization", "Bearer "+f.cfg.Token)
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := f.client.Do(req)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return false
		}
		report(ctx, errs, fmt.Errorf("open event log: %w", err))
		return true
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode >= 500:
		report(ctx, errs, fmt.Errorf("open event log: %s", resp.Status))
		return true
	default:
		report(ctx, errs, fmt.Errorf("open event log: %s", resp.Status))
		return false
	}
	if f.cfg.Follow {
		return f.follow(ctx, resp, seq, events, errs)
	}
	return f.drain(ctx, resp, seq, events, errs)
}

// follow reads a followed log until the stream breaks or ctx ends.
func (f *Follower) follow(ctx context.Context, resp *http.Response, seq *int64, events chan<- Event, errs chan<- error) bool {
	err := f.read(ctx, resp, seq, events)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return false
		}
		report(ctx, errs, fmt.Errorf("follow event log: %w", err))
		return true
	}
	return false
}

// drain reads the log to its current end.
func (f *Follower) drain(ctx context.Context, resp *http.Response, seq *int64, events chan<- Event, errs chan<- error) bool {
	err := f.read(ctx, resp, seq, events)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return false
		}
		report(ctx, errs, fmt.Errorf("read event log: %w", err))
		return true
	}
	f.logger.Info("event log drained", "seq", *seq)
	return false
}

func (f *Follower) read(ctx context.Context, resp *http.Response, seq *int64, events chan<- Event) error {
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			f.logger.Warn("skipping malformed event", "err", err)
			continue
		}
		select {
		case events <- ev:
			*seq = ev.Seq + 1
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return sc.Err()
}

func report(ctx context.Context, errs chan<- error, err error) {
	select {
	case errs <- err:
	case <-ctx.Done():
	}
}

// ---- Not reported: the flag says there is more to read, not that the read failed ----

// Pages reads the log page by page: fetchPage returns true while pages remain and false at the
// end or on a failure, so the loop goes round on success: it pages, it does not retry.
func (f *Follower) Pages(ctx context.Context, out func(Event)) {
	cursor := ""
	for f.fetchPage(ctx, &cursor, out) {
		time.Sleep(f.cfg.RetryDelay)
	}
}

func (f *Follower) fetchPage(ctx context.Context, cursor *string, out func(Event)) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.cfg.BaseURL+"/v1/pages?cursor="+url.QueryEscape(*cursor), nil)
	if err != nil {
		return false
	}
	resp, err := f.client.Do(req)
	if err != nil {
		f.logger.Warn("fetch page", "err", err)
		return false
	}
	defer resp.Body.Close()
	var page struct {
		Events []Event `json:"events"`
		Next   string  `json:"next"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		f.logger.Warn("decode page", "err", err)
		return false
	}
	for _, ev := range page.Events {
		out(ev)
	}
	*cursor = page.Next
	if page.Next == "" {
		return false
	}
	return true
}
