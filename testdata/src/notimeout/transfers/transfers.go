// Package transfers is a storage backend over HTTP and Cloud Storage: downloads stream into a
// pipe for as long as the file lasts, under a context the transfer's owner cancels; metadata
// requests carry deadlines. A deadline on a transfer would cut a large file.
package transfers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"time"

	"cloud.google.com/go/storage"
)

type FileInfo struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

type HTTPBackend struct {
	client   *http.Client
	endpoint string
	apiKey   string
	timeout  time.Duration
}

func NewHTTPBackend(endpoint, apiKey string) *HTTPBackend {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	return &HTTPBackend{client: &http.Client{Transport: tr}, endpoint: endpoint, apiKey: apiKey, timeout: 30 * time.Second}
}

// send makes and sends one request; the caller reads and closes the body.
func (b *HTTPBackend) send(ctx context.Context, method, op, name string, body io.Reader) (*http.Response, error) {
	u := fmt.Sprintf("%s/%s/%s", b.endpoint, op, url.PathEscape(name))
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-API-Key", b.apiKey)
	resp, err := b.client.Do(req.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, u, err)
	}
	if resp.StatusCode >= 300 {
		resp.Body.Close()
		return nil, fmt.Errorf("%s %s: %s", method, u, resp.Status)
	}
	return resp, nil
}

func (b *HTTPBackend) Stat(name string) (*FileInfo, error) {
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	resp, err := b.send(ctx, http.MethodGet, "stat", name, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var fi FileInfo
	return &fi, json.NewDecoder(resp.Body).Decode(&fi)
}

// Open streams the file into a pipe; cancel stops the transfer.
func (b *HTTPBackend) Open(name string) (io.ReadCloser, func(), error) {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer cancel()
		resp, err := b.send(ctx, http.MethodGet, "open", name, nil)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		defer resp.Body.Close()
		n, err := io.Copy(pw, resp.Body)
		log.Printf("download %s: %d bytes, %v", name, n, err)
		pw.CloseWithError(err)
	}()
	return pr, cancel, nil
}

// Create streams the file from a pipe as the request body; cancel stops the transfer.
func (b *HTTPBackend) Create(name string) (io.WriteCloser, func(), error) {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer cancel()
		resp, err := b.send(ctx, http.MethodPost, "create", name, pr)
		if err != nil {
			pr.CloseWithError(err)
			return
		}
		resp.Body.Close()
		pr.Close()
	}()
	return pw, cancel, nil
}

// Remove asks with no deadline at all: reported.
func (b *HTTPBackend) Remove(name string) error {
	resp, err := b.send(context.Background(), http.MethodDelete, "remove", name, nil) // related "transfers.go:38: HTTPBackend.send passes its context to Client.Do" "transfers.go:106: context.Background() has no deadline" // want `HTTPBackend\.send passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return err
}

type GCSBackend struct {
	bucket *storage.BucketHandle
}

// Download streams an object from offset into w until it ends or cancel is called.
func (g *GCSBackend) Download(name string, offset int64, w io.Writer) (func(), <-chan error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		defer cancel()
		r, err := g.bucket.Object(name).NewRangeReader(ctx, offset, -1)
		if err != nil {
			done <- err
			return
		}
		defer r.Close()
		_, err = io.Copy(w, r)
		done <- err
	}()
	return cancel, done
}

// Peek reads the first bytes with nothing that can end the read: reported.
func (g *GCSBackend) Peek(name string) ([]byte, error) {
	r, err := g.bucket.Object(name).NewRangeReader(context.Background(), 0, 512) // related "transfers.go:139: context.Background() has no deadline" // want `ObjectHandle\.NewRangeReader's stream has no context that can end it: a stalled server hangs it`
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
