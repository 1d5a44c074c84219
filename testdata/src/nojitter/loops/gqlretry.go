package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// A GraphQL client that retries a query on 429 and 5xx, waiting what the server's Retry-After
// says, or else a delay of its own computed from the attempt.

type gqlClient struct {
	hc        *http.Client
	url       string
	retries   int
	baseDelay time.Duration
	rate      float64
}

func newGQLClient(url string) *gqlClient {
	return &gqlClient{hc: &http.Client{Timeout: 30 * time.Second}, url: url, retries: 3, baseDelay: time.Second, rate: 2}
}

// retryDelay honours Retry-After (seconds or a date), else backs off exponentially.
func (c *gqlClient) retryDelay(resp *http.Response, attempt int) time.Duration {
	if resp != nil {
		if ra := resp.Header.Get("Retry-After"); ra != "" {
			if secs, err := strconv.ParseInt(ra, 10, 32); err == nil && secs > 0 {
				return max(time.Duration(secs)*time.Second, c.baseDelay)
			}
			if at, err := time.Parse(time.RFC1123, ra); err == nil && at.After(time.Now()) {
				return max(time.Until(at), c.baseDelay)
			}
		}
	}
	return time.Duration(float64(c.baseDelay) * math.Pow(c.rate, float64(attempt)))
}

// jitteredDelay honours Retry-After, else backs off with full jitter.
func (c *gqlClient) jitteredDelay(resp *http.Response, attempt int) time.Duration {
	if resp != nil {
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			return time.Duration(secs) * time.Second
		}
	}
	ceiling := float64(c.baseDelay) * math.Pow(c.rate, float64(attempt))
	return time.Duration(rand.Float64() * ceiling)
}

func (c *gqlClient) post(ctx context.Context, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/graphql-response+json")
	return c.hc.Do(req)
}

func retryableGQL(resp *http.Response) bool {
	return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
}

// Query waits retryDelay between attempts: when the server says nothing, the waits are the
// same for every client, reported.
func (c *gqlClient) Query(ctx context.Context, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.post(ctx, body)
		if err != nil {
			return err
		}
		if !retryableGQL(resp) || attempt >= c.retries {
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
				return fmt.Errorf("graphql: %s: %s", resp.Status, msg)
			}
			return json.NewDecoder(resp.Body).Decode(out)
		}
		resp.Body.Close()
		time.Sleep(c.retryDelay(resp, attempt)) // related "gqlretry.go:78: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
}

// QueryJittered waits jitteredDelay: not reported.
func (c *gqlClient) QueryJittered(ctx context.Context, query string, out any) error {
	body, err := json.Marshal(map[string]any{"query": query})
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.post(ctx, body)
		if err != nil {
			return err
		}
		if !retryableGQL(resp) || attempt >= c.retries {
			defer resp.Body.Close()
			return json.NewDecoder(resp.Body).Decode(out)
		}
		resp.Body.Close()
		time.Sleep(c.jitteredDelay(resp, attempt))
	}
}
