// Package corequery queries an auth core over HTTP. Each call hands the helper a function
// that makes and sends its request; the helper tries the hosts in turn, and on a 429 sleeps a
// delay that grows by a fixed step with the attempts made, then calls itself again with the
// same request and its map of the retries left per URL, handed on by address. That map is the
// recursion's own state, not what it sends: the recursion retries the same request, backing
// off without jitter.
package corequery

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
				time.Sleep(time.Duration(delay) * time.Millisecond) // related "corequery.go:35: retrying recursion" // want `retrying function send backs off without jitter, so clients that failed together retry together, in waves; add jitter`
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

// Get asks the core for path.
func (q *Querier) Get(ctx context.Context, path string) (map[string]any, error) {
	return q.send(path, func(url string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("api-key", apiKey)
		req.Header.Set("cdi-version", q.version)
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
		req.Header.Set("api-key", apiKey)
		return hc.Do(req)
	}, len(hosts), nil)
	return err
}
