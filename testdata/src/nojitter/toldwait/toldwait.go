// Package toldwait: a forge client's helper that waits as long as the forge's Retry-After header
// says (carried by an error type the package makes only from that header), or backs off on a
// "secondary rate limit" message. The first wait is the server's; the second is the client's.
package toldwait

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

type retryAfterError time.Duration

func (r retryAfterError) Error() string {
	return fmt.Sprintf("rate limited, wait %s", time.Duration(r))
}

func retryAfterFrom(resp *http.Response) error {
	if resp == nil {
		return nil
	}
	s := resp.Header.Get("Retry-After")
	if s == "" {
		return nil
	}
	secs, err := strconv.Atoi(s)
	if err != nil {
		return nil
	}
	return retryAfterError(time.Duration(secs) * time.Second)
}

func pause(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

func retryRequest(ctx context.Context, fn func() error) error {
	for tries := 1; ; tries++ {
		err := fn()
		if err == nil {
			return nil
		}
		var ra retryAfterError
		switch {
		case errors.As(err, &ra):
			if err := pause(ctx, time.Duration(ra)); err != nil {
				return err
			}
		case strings.Contains(err.Error(), "secondary rate limit"):
			if err := pause(ctx, time.Duration(tries*tries)*time.Second); err != nil { // related "toldwait.go:49: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
				return err
			}
		default:
			return err
		}
	}
}

type Client struct {
	hc  *http.Client
	url string
}

func (c *Client) do(ctx context.Context, req *http.Request) (*http.Response, error) {
	resp, err := c.hc.Do(req.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	if err := retryAfterFrom(resp); err != nil {
		resp.Body.Close()
		return nil, err
	}
	return resp, nil
}

func (c *Client) graphQL(ctx context.Context, query string, vars, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.do(ctx, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("graphql: %s", resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// ---- Reported: the backoff on a secondary rate limit (above); the Retry-After wait is not ----

func (c *Client) EnableAutoMerge(ctx context.Context, prID string) error {
	var out struct{}
	return retryRequest(ctx, func() error {
		return c.graphQL(ctx, "mutation($id: ID!) { enablePullRequestAutoMerge(input: {pullRequestId: $id}) { clientMutationId } }", map[string]any{"id": prID}, &out)
	})
}
