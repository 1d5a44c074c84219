// Package peers is a client of a replicated store that sends each request to the first node
// that answers: it walks the peer list and goes on to the next peer when one fails. A write
// the first node applied, whose answer was lost, is applied again by the next one: the POST
// is sent again, elsewhere, without a key. Reads walk the peers harmlessly; a loop over a
// work list sends a different request each round, and a broadcast sends to every peer
// whatever each answers: neither sends the same request again.
package peers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// Client talks to the nodes of one cluster.
type Client struct {
	peers  []string
	client *http.Client
	log    *slog.Logger
}

// New returns a client of the cluster whose nodes are peers.
func New(peers []string) *Client {
	return &Client{peers: peers, client: &http.Client{Timeout: 10 * time.Second}, log: slog.Default()}
}

func (c *Client) url(peer, path string) string { return "http://" + peer + path }

// call sends the request to each peer in turn until one answers 200.
func (c *Client) call(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	if len(c.peers) == 0 {
		return nil, errors.New("no peers")
	}
	var failures []string
	for i, peer := range c.peers { // related "peers.go:79: POST /db/execute sent here" // want `the retry loop in Client.call retries POST /db/execute without an idempotency key, so a retry can repeat its effect`
		var r io.Reader
		if body != nil {
			r = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.url(peer, path), r)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.client.Do(req)
		if err != nil {
			c.log.Debug("peer failed", "peer", i, "err", err)
			failures = append(failures, fmt.Sprintf("%s: %v", peer, err))
			continue
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", peer, err))
			continue
		}
		if resp.StatusCode != http.StatusOK {
			failures = append(failures, fmt.Sprintf("%s: %s: %s", peer, resp.Status, data))
			continue
		}
		return data, nil
	}
	return nil, fmt.Errorf("all peers failed: %s", strings.Join(failures, "; "))
}

// Execute runs statements that change the store.
func (c *Client) Execute(ctx context.Context, stmts []string) error {
	body, err := json.Marshal(stmts)
	if err != nil {
		return err
	}
	_, err = c.call(ctx, http.MethodPost, "/db/execute", body)
	return err
}

// Status reads a node's status: a GET, sent again harmlessly.
func (c *Client) Status(ctx context.Context) (map[string]any, error) {
	data, err := c.call(ctx, http.MethodGet, "/status", nil)
	if err != nil {
		return nil, err
	}
	var st map[string]any
	return st, json.Unmarshal(data, &st)
}

// Job is one unit of work.
type Job struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

// SubmitAll submits each job to the first peer, skipping the ones it refuses: each round
// sends another job.
func (c *Client) SubmitAll(ctx context.Context, jobs []Job) (int, error) { // want SubmitAll:`sends a POST request without an idempotency key`
	done := 0
	for _, job := range jobs {
		body, err := json.Marshal(job)
		if err != nil {
			return done, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url(c.peers[0], "/jobs"), bytes.NewReader(body))
		if err != nil {
			return done, err
		}
		resp, err := c.client.Do(req)
		if err != nil {
			c.log.Warn("job not submitted", "job", job.ID, "err", err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusConflict {
			return done, fmt.Errorf("job %s: already submitted", job.ID)
		}
		done++
	}
	return done, nil
}

// Announce tells every peer about a new member, whatever each answers.
func (c *Client) Announce(ctx context.Context, member string) { // want Announce:`sends a POST request without an idempotency key`
	body := []byte(`{"member":"` + member + `"}`)
	for _, peer := range c.peers {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url(peer, "/members"), bytes.NewReader(body))
		if err != nil {
			continue
		}
		resp, err := c.client.Do(req)
		if err != nil {
			c.log.Warn("announce failed", "peer", peer, "err", err)
			continue
		}
		resp.Body.Close()
	}
}
