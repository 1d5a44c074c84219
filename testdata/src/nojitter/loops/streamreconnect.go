package loops

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// A subscriber that reads a stream of events and connects again a fixed 10s after the stream
// ends, whether it failed or the server closed it: every end of a stream is a disconnect, so
// the wait made on every way round is the reconnect's, and subscribers dropped together come
// back together. A loop that makes a plain request every round (a periodic sync) is not a
// reconnect loop.

type feedEvent struct {
	ID    string `json:"id"`
	Topic string `json:"topic"`
	Body  string `json:"body"`
}

var feedClient = &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 10 * time.Second}}

// readFeed reads the stream until it ends or fails.
func readFeed(ctx context.Context, url string, out chan<- feedEvent) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := feedClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var ev feedEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			slog.Warn("bad event", "err", err)
			continue
		}
		select {
		case out <- ev:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return sc.Err()
}

// SubscribeFeed reconnects a fixed 10s after each end of the stream.
func SubscribeFeed(ctx context.Context, url string, out chan<- feedEvent) {
	for {
		if err := readFeed(ctx, url, out); err != nil {
			slog.Warn("feed connection failed", "url", url, "err", err)
		}
		select {
		case <-ctx.Done():
			slog.Info("feed closed", "url", url)
			return
		case <-time.After(10 * time.Second): // related "streamreconnect.go:56: long-running loop" // want `long-running loop waits a fixed 10s between attempts, so clients that failed together retry together; add jitter`
		}
	}
}

// fetchStatus makes a plain request: its response is not a stream.
func fetchStatus(ctx context.Context, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := feedClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var st struct {
		State string `json:"state"`
	}
	return st.State, json.NewDecoder(resp.Body).Decode(&st)
}

// SyncStatus checks every 10s, whatever the last check gave: a schedule, not a reconnect.
func SyncStatus(ctx context.Context, url string, report func(string)) {
	for {
		if st, err := fetchStatus(ctx, url); err != nil {
			slog.Warn("status failed", "url", url, "err", err)
		} else {
			report(st)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Second):
		}
	}
}
