// Package streams: responses read as streams (server-sent events, newline-delimited JSON).
// A stream lives as long as the server sends, and a client Timeout would cut it: a stream
// whose request nothing can end is reported at the call, without a Timeout fix; one sent
// with the caller's context is the caller's to end. A client that both streams and answers
// plain requests is reported for the plain ones, without the fix that would cut its stream.
package streams

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
)

type Event struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// Follow reads server-sent events from a request with no context: nothing can end it.
func Follow(url string, handle func(string) error) error {
	resp, err := http.Get(url) // want `http\.Get's stream has no context that can end it, so a stalled server hangs it; cancel one when it goes quiet`
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("stream: %s", resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			if err := handle(data); err != nil {
				slog.Warn("event", "err", err)
			}
		}
	}
	return sc.Err()
}

// Watcher streams changes through its client and asks for the status through the same one.
type Watcher struct {
	hc   *http.Client
	base string
}

func NewWatcher(base string) *Watcher {
	return &Watcher{hc: &http.Client{}, base: base} // related "streams.go:84: Watcher.Status sends a request with its caller's context through it" "streams.go:62: Watcher.Watch reads a stream through it, which a Timeout would cut" // want `this http\.Client has no Timeout, so Watcher\.Status can hang; it also streams: give each request a deadline`
}

// Watch streams newline-delimited JSON with the caller's context: the caller ends it.
func (w *Watcher) Watch(ctx context.Context, out chan<- Event) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.base+"/v1/watch", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := w.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for dec.More() {
		var ev Event
		if err := dec.Decode(&ev); err != nil {
			return err
		}
		out <- ev
	}
	return nil
}

// Status is a plain request: the client's missing Timeout can hang it.
func (w *Watcher) Status(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.base+"/v1/status", nil)
	if err != nil {
		return "", err
	}
	resp, err := w.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var st struct {
		State string `json:"state"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return "", err
	}
	return st.State, nil
}

// Tail streams lines until stop is called: a context that can end it, not reported.
func Tail(url string) (<-chan string, func(), error) {
	ctx, stop := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		stop()
		return nil, nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		stop()
		return nil, nil, err
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	return lines, stop, nil
}
