// Package docsync is the client library of a document sync service, which speaks Connect
// through the generated syncv1connect client.
package docsync

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"connectrpc.com/connect"
	"example.com/docsync/syncv1connect"
)

type Options struct {
	TLS      *tls.Config
	APIKey   string
	Interval time.Duration
}

// Client syncs documents in the background with the context given to Activate.
type Client struct {
	rpc    syncv1connect.SyncServiceClient
	apiKey string
	opts   Options

	mu      sync.Mutex
	pending map[string][][]byte
	cancel  context.CancelFunc
}

// New builds the client; its HTTP client has no Timeout, and the RPCs carry the caller's
// context only: reported once, at the client.
func New(addr string, opts Options) *Client {
	if opts.Interval == 0 {
		opts.Interval = 50 * time.Millisecond
	}
	hc := &http.Client{} // related "docsync.go:62: Client.PushPull sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.PushPull can hang; set a default Timeout`
	if opts.TLS != nil {
		hc.Transport = &http.Transport{TLSClientConfig: opts.TLS}
	}
	return &Client{
		rpc:     syncv1connect.NewSyncServiceClient(hc, addr),
		apiKey:  opts.APIKey,
		opts:    opts,
		pending: make(map[string][][]byte),
	}
}

// PushPull sends a document's pending changes and returns the server's.
func (c *Client) PushPull(ctx context.Context, doc string) ([][]byte, error) {
	c.mu.Lock()
	changes := c.pending[doc]
	delete(c.pending, doc)
	c.mu.Unlock()
	req := connect.NewRequest(&syncv1connect.PushPullRequest{DocID: doc, Changes: changes})
	req.Header().Set("Authorization", "Bearer "+c.apiKey)
	resp, err := c.rpc.PushPull(ctx, req)
	if err != nil {
		c.mu.Lock()
		c.pending[doc] = append(changes, c.pending[doc]...)
		c.mu.Unlock()
		return nil, fmt.Errorf("push-pull %s: %w", doc, err)
	}
	return resp.Msg.Changes, nil
}

// Watch follows a document's events: a stream lives as long as the watch, not reported.
func (c *Client) Watch(ctx context.Context, doc string, events chan<- string) error {
	stream, err := c.rpc.Watch(ctx, connect.NewRequest(&syncv1connect.WatchRequest{DocID: doc}))
	if err != nil {
		return err
	}
	defer stream.Close()
	for stream.Receive() {
		events <- stream.Msg().Event
	}
	return stream.Err()
}

// Admin is a client of the same service whose HTTP client has a Timeout: not reported.
type Admin struct {
	rpc syncv1connect.SyncServiceClient
}

func NewAdmin(addr string) *Admin {
	hc := &http.Client{Timeout: 20 * time.Second}
	return &Admin{rpc: syncv1connect.NewSyncServiceClient(hc, addr, connect.WithGRPC())}
}

func (a *Admin) Flush(doc string) error {
	_, err := a.rpc.PushPull(context.Background(), connect.NewRequest(&syncv1connect.PushPullRequest{DocID: doc}))
	if err != nil && !errors.Is(err, context.Canceled) {
		slog.Warn("flush failed", "doc", doc, "err", err)
		return err
	}
	return nil
}

// Remote wraps a client the caller built: its Timeout is the caller's choice, not reported.
type Remote struct {
	rpc syncv1connect.SyncServiceClient
}

func NewRemote(hc connect.HTTPClient, addr string) *Remote {
	return &Remote{rpc: syncv1connect.NewSyncServiceClient(hc, addr)}
}

func (r *Remote) Ping(doc string) error {
	_, err := r.rpc.PushPull(context.Background(), connect.NewRequest(&syncv1connect.PushPullRequest{DocID: doc}))
	return err
}
