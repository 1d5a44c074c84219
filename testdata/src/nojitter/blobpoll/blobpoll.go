// Package blobpoll reads artifacts from an HTTP blob store that answers a missing blob with
// fs.ErrNotExist, as a file system would. A loop that goes round on that error polls a remote
// store, not this machine's files.
package blobpoll

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"time"
)

// Store is an HTTP blob store.
type Store struct {
	client *http.Client
	base   string
}

// Open returns the blob's content, or fs.ErrNotExist when the store has no such blob.
func (s *Store) Open(ctx context.Context, name string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/blobs/"+name, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, fs.ErrNotExist
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("reading %s: %s", name, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// WaitPublished polls the store, every fixed two seconds, until the build publishes the blob.
func (s *Store) WaitPublished(ctx context.Context, name string) ([]byte, error) {
	for range 30 {
		b, err := s.Open(ctx, name)
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		time.Sleep(2 * time.Second) // related "blobpoll.go:44: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
	}
	return nil, fmt.Errorf("%s not published", name)
}
