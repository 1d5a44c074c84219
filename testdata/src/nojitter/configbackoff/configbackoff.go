// Package configbackoff fetches a repository's pipeline file from a code host: a wrapper tries
// the fetch again while it fails, leaving once the data arrives (the fetch returns nil data
// with its error, by Go's convention); a readiness wait that leaves on any error and goes
// round only while the file is absent polls.
package configbackoff

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"
)

type Client struct {
	base  string
	token string
	http  *http.Client
}

func New(base, token string) *Client {
	return &Client{base: base, token: token, http: &http.Client{Timeout: 30 * time.Second}}
}

type contents struct {
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
}

// errAbsent is returned when the file is not in the repository.
var errAbsent = errors.New("pipeline file not found")

// Config fetches the pipeline file at ref: nil data with an error when it fails.
func (c *Client) Config(ctx context.Context, org, repo, ref string) ([]byte, error) {
	for _, file := range []string{".ci.yml", ".ci.yaml"} {
		url := fmt.Sprintf("%s/repos/%s/%s/contents/%s?ref=%s", c.base, org, repo, file, ref)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Accept", "application/vnd.github+json")
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", file, err)
		}
		if resp.StatusCode == http.StatusNotFound {
			resp.Body.Close()
			continue
		}
		var body contents
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("decode %s: %w", file, err)
		}
		data, err := base64.StdEncoding.DecodeString(body.Content)
		if err != nil {
			return nil, fmt.Errorf("decode %s content: %w", file, err)
		}
		return data, nil
	}
	return nil, errAbsent
}

// ConfigBackoff tries Config five times, waiting a little longer each time.
func (c *Client) ConfigBackoff(ctx context.Context, org, repo, ref string) (data []byte, err error) {
	retryLimit := 5
	for i := range retryLimit {
		log.Printf("fetching pipeline of %s/%s - attempt %d", org, repo, i+1)
		data, err = c.Config(ctx, org, repo, ref)
		if err != nil && i == retryLimit-1 {
			return
		}
		if data != nil {
			break
		}
		sleep := time.Duration(i+1) * time.Second
		time.Sleep(sleep) // related "configbackoff.go:72: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	return
}

// Find returns the pipeline file, or nil when the repository has none yet.
func (c *Client) Find(ctx context.Context, org, repo, ref string) ([]byte, error) {
	data, err := c.Config(ctx, org, repo, ref)
	if errors.Is(err, errAbsent) {
		return nil, nil
	}
	return data, err
}

// AwaitPipeline waits for a pipeline file to be pushed: it leaves on any error and goes round
// only while the file is absent, a poll.
func (c *Client) AwaitPipeline(ctx context.Context, org, repo, ref string) ([]byte, error) {
	for {
		data, err := c.Find(ctx, org, repo, ref)
		if err != nil {
			return nil, err
		}
		if data != nil {
			return data, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(5 * time.Second):
		}
	}
}
