// Package maybedefault picks its HTTP client by configuration: http.DefaultClient unless a
// proxy is configured, when it builds one with a Timeout. On the default path, the one most
// users run, nothing bounds the request: a client that is the default on some path has no
// timeout on that path.
package maybedefault

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Fetcher downloads documents.
type Fetcher struct {
	hc    *http.Client
	agent string
}

// NewFetcher uses a proxy when one is given.
func NewFetcher(proxy, agent string) *Fetcher {
	c := http.DefaultClient
	if proxy != "" {
		if u, err := url.Parse(proxy); err == nil {
			c = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(u)}}
		}
	}
	return &Fetcher{hc: c, agent: agent}
}

// Fetch downloads one document.
func (f *Fetcher) Fetch(target string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.agent)
	req.Header.Set("Accept", "text/html")
	resp, err := f.hc.Do(req) // related "maybedefault.go:34: http.NewRequest gives the request no context" // want `http\.DefaultClient has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", target, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch %s: %s", target, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 1<<20))
}

// Timed picks between two clients that both have a Timeout: not reported.
type Timed struct{ hc *http.Client }

func NewTimed(slow bool) *Timed {
	c := &http.Client{Timeout: 10 * time.Second}
	if slow {
		c = &http.Client{Timeout: 2 * time.Minute}
	}
	return &Timed{hc: c}
}

func (t *Timed) Get(target string) (int, error) {
	resp, err := t.hc.Get(target)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
