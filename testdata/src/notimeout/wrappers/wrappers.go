// Package wrappers is an SDK whose calls pass the caller's context down several layers to the
// request: CreateWidget -> doPost -> doRequest -> Client.Do. Its client is http.DefaultClient,
// which it keeps in an unexported field: its users cannot give another, so the missing
// Timeout is the package's, reported once where it is chosen, and the callers that pass a
// context without a deadline (having none to pass) are not reported again.
package wrappers

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"
)

type Client struct {
	client  *http.Client
	baseURL string
}

func NewClient(baseURL string) *Client {
	return &Client{client: http.DefaultClient, baseURL: baseURL} // related "wrappers.go:30: Client.doRequest sends a request with its caller's context through it" // want `http\.DefaultClient has no Timeout as the default, so Client\.doRequest can hang; use a client with a Timeout`
}

func (c *Client) doRequest(ctx context.Context, method, path string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, body)
	if err != nil {
		return nil, err
	}
	return c.client.Do(req)
}

func (c *Client) doPost(ctx context.Context, path string, body io.Reader) error {
	resp, err := c.doRequest(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateWidget(ctx context.Context, name string) error {
	return c.doPost(ctx, "/widgets", strings.NewReader(name))
}

// A layer that adds a deadline: its callers may pass any context.
func (c *Client) DeleteWidget(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.doPost(ctx, "/widgets/"+id+"/delete", nil)
}

// Syncer wraps the client once more, in the shape of a service using the SDK.
type Syncer struct {
	api *Client
}

func (s *Syncer) SyncOne(ctx context.Context, name string) error {
	return s.api.CreateWidget(ctx, name)
}

// ---- Not reported: the client's finding is the cause ----

func Sync(names []string) error {
	ctx := context.Background()
	c := NewClient("https://widgets.example.com")
	for _, n := range names {
		if err := c.CreateWidget(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// ---- Not reported ----

func Cleanup(ids []string) {
	c := NewClient("https://widgets.example.com")
	for _, id := range ids {
		c.DeleteWidget(context.Background(), id)
	}
}

func SyncWithin(ctx context.Context, names []string) {
	c := NewClient("https://widgets.example.com")
	for _, n := range names {
		c.CreateWidget(ctx, n)
	}
}

func SyncBounded(s *Syncer, names []string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, n := range names {
		s.SyncOne(ctx, n)
	}
}
