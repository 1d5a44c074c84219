// Package refusals: a forge client whose helper goes round when the forge turned a request away
// with a Retry-After header, or with a "secondary rate limit" message: such a request had no
// effect, so sending its mutation again repeats nothing. A helper that also goes round on the
// client's own error for a 5xx does repeat it.
package refusals

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
			if err := pause(ctx, time.Duration(tries*tries)*time.Second); err != nil {
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

// ---- Not reported: the helper goes round only when the forge turned the mutation away ----

func (c *Client) EnableAutoMerge(ctx context.Context, prID string) error {
	var out struct{}
	return retryRequest(ctx, func() error {
		return c.graphQL(ctx, "mutation($id: ID!) { enablePullRequestAutoMerge(input: {pullRequestId: $id}) { clientMutationId } }", map[string]any{"id": prID}, &out)
	})
}

// serverError is what the client makes of a 5xx answer: the mutation may have run.
type serverError struct{ status int }

func (e *serverError) Error() string { return fmt.Sprintf("server error %d", e.status) }

func (c *Client) mutate(ctx context.Context, query string, vars any) error {
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
	if resp.StatusCode >= 500 {
		return &serverError{status: resp.StatusCode}
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("graphql: %s", resp.Status)
	}
	return nil
}

// retryServer goes round on a 5xx as well as on refusals.
func retryServer(ctx context.Context, fn func() error) error {
	for tries := 1; tries <= 5; tries++ {
		err := fn()
		if err == nil {
			return nil
		}
		var ra retryAfterError
		var se *serverError
		switch {
		case errors.As(err, &ra):
			if err := pause(ctx, time.Duration(ra)); err != nil {
				return err
			}
		case errors.As(err, &se), strings.Contains(err.Error(), "bad gateway"):
			if err := pause(ctx, time.Duration(tries)*time.Second); err != nil {
				return err
			}
		default:
			return err
		}
	}
	return errors.New("out of attempts")
}

// ---- Reported: a 5xx may come after the comment was made ----

func (c *Client) AddComment(ctx context.Context, prID, text string) error {
	return retryServer(ctx, func() error {
		return c.mutate(ctx, "mutation($id: ID!, $body: String!) { addComment(input: {subjectId: $id, body: $body}) { clientMutationId } }", map[string]any{"id": prID, "body": text}) // related "refusals.go:175: retry callback", "refusals.go:133: sent here by mutate" // want `POST /graphql is retried with no idempotency key; mutate must send one made before the retries`
	})
}
