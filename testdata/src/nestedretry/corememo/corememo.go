// Package corememo queries an auth core over HTTP through a helper that retries (a 429 after
// a growing wait, a refused connection on the next host). Each request carries the API
// version, which Version asks the core for through the same helper once and then keeps:
// after its first answer it answers from memory, so the helper's retries around a request
// do not repeat its retries. A status query asked afresh inside every attempt does.
package corememo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

const rateLimited = 429

var (
	hostsMu   sync.Mutex
	hosts     []string
	lastTried int
	apiKey    string
	hc        = &http.Client{Timeout: 20 * time.Second}
)

type doFunc func(url string) (*http.Response, error)

type Querier struct{ version string }

func (q *Querier) send(path string, do doFunc, tries int, retries *map[string]int) (map[string]any, error) {
	if tries == 0 {
		return nil, errors.New("corequery: no core available")
	}
	hostsMu.Lock()
	url := hosts[lastTried] + path
	const maxRetries = 5
	var left map[string]int
	if retries != nil {
		left = *retries
	} else {
		left = map[string]int{}
	}
	if _, ok := left[url]; !ok {
		left[url] = maxRetries
	}
	lastTried = (lastTried + 1) % len(hosts)
	hostsMu.Unlock()

	resp, err := do(url)
	if err != nil {
		if strings.Contains(err.Error(), "connection refused") {
			return q.send(path, do, tries-1, &left)
		}
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		if resp.StatusCode == rateLimited {
			if n := left[url]; n > 0 {
				left[url] = n - 1
				delay := 10 + 250*(maxRetries-n)
				time.Sleep(time.Duration(delay) * time.Millisecond)
				return q.send(path, do, tries, &left)
			}
		}
		return nil, fmt.Errorf("corequery: %s: status %d: %s", path, resp.StatusCode, body)
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		return map[string]any{"result": string(body)}, nil
	}
	return out, nil
}

var (
	versionMu sync.Mutex
	version   string
)

// Version asks the core which API version it speaks, once.
func (q *Querier) Version(ctx context.Context) (string, error) {
	versionMu.Lock()
	defer versionMu.Unlock()
	if version != "" {
		return version, nil
	}
	out, err := q.send("/apiversion", func(url string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("api-key", apiKey)
		return hc.Do(req)
	}, len(hosts), nil)
	if err != nil {
		return "", err
	}
	v, _ := out["version"].(string)
	version = v
	return v, nil
}

// Status asks the core how it is, every time.
func (q *Querier) Status(ctx context.Context) (string, error) {
	out, err := q.send("/status", func(url string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		return hc.Do(req)
	}, len(hosts), nil)
	if err != nil {
		return "", err
	}
	s, _ := out["status"].(string)
	return s, nil
}

// Get asks the core for path.
func (q *Querier) Get(ctx context.Context, path string) (map[string]any, error) {
	return q.send(path, func(url string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		v, err := q.Version(ctx)
		if err != nil {
			return nil, err
		}
		req.Header.Set("api-key", apiKey)
		req.Header.Set("cdi-version", v)
		return hc.Do(req)
	}, len(hosts), nil)
}

// Delete removes path.
func (q *Querier) Delete(ctx context.Context, path string) error {
	_, err := q.send(path, func(url string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, url, nil)
		if err != nil {
			return nil, err
		}
		if s, err := q.Status(ctx); err != nil || s != "up" { // related "corememo.go:146: outer retry callback" "corememo.go:113: inner retry callback" // want `retries around Querier\.Status, which retries too: attempts multiply on transient failures; keep one layer`
			return nil, fmt.Errorf("corememo: core not up: %v", err)
		}
		req.Header.Set("api-key", apiKey)
		return hc.Do(req)
	}, len(hosts), nil)
	return err
}
