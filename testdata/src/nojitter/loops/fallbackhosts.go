package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net"
	"net/http"
	"time"
)

// A REST client with fallback hosts: when the primary host fails with a timeout or a 5xx, it
// sends the request to the fallback hosts, each at most once, picked at random from those not
// tried yet. Each round goes to another host: a failover, not a retry of the same one.

type hostedClient struct {
	hc        *http.Client
	primary   string
	fallbacks []string
	maxTries  int
}

func retryableHost(err error, resp *http.Response) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return resp != nil && resp.StatusCode >= 500 && resp.StatusCode <= 504
}

func (c *hostedClient) newRequest(ctx context.Context, path string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+c.primary+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Client", "hosted/1")
	return req, nil
}

func readOK(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("status %s", resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// Get tries the fallback hosts in a random order, dropping each one it tried: not reported.
func (c *hostedClient) Get(ctx context.Context, path string) ([]byte, error) {
	req, err := c.newRequest(ctx, path)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err == nil {
		return readOK(resp)
	}
	if !retryableHost(err, resp) || len(c.fallbacks) == 0 {
		return nil, err
	}
	left := c.fallbacks
	tries := 0
	for {
		if len(left) == 0 {
			return nil, fmt.Errorf("fallback hosts exhausted: %w", err)
		}
		var h string
		if len(left) == 1 {
			h = left[0]
		} else {
			h = left[rand.Intn(len(left))]
		}
		var rest []string
		for _, v := range left {
			if v != h {
				rest = append(rest, v)
			}
		}
		left = rest
		req, err := c.newRequest(ctx, path)
		if err != nil {
			return nil, err
		}
		req.URL.Host = h
		req.Host = ""
		log.Printf("trying fallback host %s", h)
		resp, err := c.hc.Do(req)
		answered := resp
		var body []byte
		if err == nil {
			body, err = readOK(resp)
		}
		if err != nil {
			tries++
			if tries >= c.maxTries || !retryableHost(err, answered) {
				return nil, err
			}
			continue
		}
		return body, nil
	}
}

// GetInOrder takes the fallback hosts in order, popping the first each round: not reported.
func (c *hostedClient) GetInOrder(ctx context.Context, path string) ([]byte, error) {
	left := append([]string{c.primary}, c.fallbacks...)
	var last error
	for len(left) > 0 {
		h := left[0]
		left = left[1:]
		req, err := c.newRequest(ctx, path)
		if err != nil {
			return nil, err
		}
		req.URL.Host = h
		resp, err := c.hc.Do(req)
		if err != nil {
			last = err
			continue
		}
		return readOK(resp)
	}
	return nil, fmt.Errorf("all hosts failed: %w", last)
}

// GetAnyHost picks a random host each round from all of them, the one that failed included,
// and goes round at once: reported.
func (c *hostedClient) GetAnyHost(ctx context.Context, path string) ([]byte, error) {
	hosts := append([]string{c.primary}, c.fallbacks...)
	for attempt := 0; attempt < 5; attempt++ { // related "fallbackhosts.go:134: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		h := hosts[rand.Intn(len(hosts))]
		req, err := c.newRequest(ctx, path)
		if err != nil {
			return nil, err
		}
		req.URL.Host = h
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		return readOK(resp)
	}
	return nil, fmt.Errorf("no host answered after %s", 5*time.Second)
}
