// Package ctxclient: a library that sends with the client its caller put in the context, or
// http.DefaultClient when there is none, and keeps contexts in struct fields.
package ctxclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

type clientKey struct{}

// WithHTTPClient returns a context whose requests go through hc.
func WithHTTPClient(ctx context.Context, hc *http.Client) context.Context {
	return context.WithValue(ctx, clientKey{}, hc)
}

func clientOf(ctx context.Context) *http.Client {
	if hc, ok := ctx.Value(clientKey{}).(*http.Client); ok {
		return hc
	}
	return nil
}

// ---- Reported: http.DefaultClient unless the context carries a client ----

func fetch(ctx context.Context, req *http.Request) (*http.Response, error) {
	hc := http.DefaultClient // related "ctxclient.go:37: fetch sends a request with its caller's context through it" "ctxclient.go:24: a client given here replaces the default" // want `http\.DefaultClient has no Timeout as the default, so fetch can hang; use a client with a Timeout`
	if c := clientOf(ctx); c != nil {
		hc = c
	}
	return hc.Do(req.WithContext(ctx))
}

// KeySet caches signing keys fetched from a URL. It keeps the context it was made with,
// detached from the caller's cancellation and deadline, for the refreshes it runs later.
type KeySet struct {
	ctx  context.Context
	url  string
	mu   sync.Mutex
	keys map[string][]byte
	at   time.Time
}

func NewKeySet(ctx context.Context, url string) *KeySet {
	return &KeySet{ctx: context.WithoutCancel(ctx), url: url}
}

func (k *KeySet) refresh() (map[string][]byte, error) {
	req, err := http.NewRequest(http.MethodGet, k.url, nil)
	if err != nil {
		return nil, fmt.Errorf("keys request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Cache-Control", "no-cache")
	resp, err := fetch(k.ctx, req) // related "ctxclient.go:32: fetch passes its context to Client.Do" "ctxclient.go:51: context.WithoutCancel drops the deadline" // want `fetch passes a context without a deadline to Client\.Do, so a stalled server hangs this call; use context\.WithTimeout`
	if err != nil {
		return nil, fmt.Errorf("fetch keys: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return nil, fmt.Errorf("fetch keys: %s: %s", resp.Status, b)
	}
	var keys map[string][]byte
	if err := json.NewDecoder(resp.Body).Decode(&keys); err != nil {
		return nil, fmt.Errorf("decode keys: %w", err)
	}
	return keys, nil
}

// Key returns the key named id, refreshing the set when it is a minute old.
func (k *KeySet) Key(id string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if time.Since(k.at) > time.Minute {
		keys, err := k.refresh()
		if err != nil {
			slog.Warn("key refresh failed", "url", k.url, "err", err)
			return nil, err
		}
		k.keys, k.at = keys, time.Now()
	}
	return k.keys[id], nil
}

// ---- Not reported ----

// Discover sends with its caller's context: one of the calls the default's finding lists.
func Discover(ctx context.Context, url string) (map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := fetch(ctx, req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var doc map[string]any
	return doc, json.NewDecoder(resp.Body).Decode(&doc)
}

// poller keeps its caller's context, deadline and all.
type poller struct {
	ctx context.Context
	url string
}

func newPoller(ctx context.Context, url string) *poller { return &poller{ctx: ctx, url: url} }

func (p *poller) once() error {
	req, err := http.NewRequest(http.MethodGet, p.url, nil)
	if err != nil {
		return err
	}
	resp, err := fetch(p.ctx, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// bounded keeps a context with a deadline.
type bounded struct {
	ctx    context.Context
	cancel context.CancelFunc
	url    string
}

func newBounded(url string) *bounded {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	return &bounded{ctx: ctx, cancel: cancel, url: url}
}

func (b *bounded) once() error {
	defer b.cancel()
	req, err := http.NewRequest(http.MethodGet, b.url, nil)
	if err != nil {
		return err
	}
	resp, err := fetch(b.ctx, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var _ = newPoller
var _ = newBounded
