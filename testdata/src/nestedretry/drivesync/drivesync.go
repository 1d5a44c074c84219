// Package drivesync: a backup tool's Google Drive storage. Its own loop retries a failed
// create with a capped, jittered backoff. The generated client sends a call once; only a
// resumable upload of media larger than a chunk retries that chunk inside Do (for at most
// 32 s): no retry layer of the caller's, so the loop is the one layer.
package drivesync

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"

	drive "google.golang.org/api/drive/v3"
)

type Storage struct {
	service    *drive.Service
	rootID     string
	maxRetries int
}

func New(ctx context.Context, client *http.Client, rootID string) (*Storage, error) {
	srv, err := drive.NewService(ctx, client)
	if err != nil {
		return nil, fmt.Errorf("drive service: %w", err)
	}
	return &Storage{service: srv, rootID: rootID, maxRetries: 6}, nil
}

// backoff waits before the next attempt, or reports that the attempts ran out.
func (s *Storage) backoff(ctx context.Context, attempt int, err error) error {
	if attempt >= s.maxRetries {
		return fmt.Errorf("giving up after %d attempts: %w", attempt, err)
	}
	d := time.Duration(1<<attempt) * 250 * time.Millisecond
	d = d/2 + rand.N(d/2+1)
	log.Printf("drive: attempt %d failed (%v); retrying in %s", attempt, err, d)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// CreateDirectory makes a folder under parent.
func (s *Storage) CreateDirectory(ctx context.Context, parent, name string) (string, error) {
	folder := &drive.File{Name: name, MimeType: "application/vnd.google-apps.folder", Parents: []string{parent}}
	for attempt := 0; ; attempt++ {
		created, err := s.service.Files.Create(folder).Fields("id").Context(ctx).Do()
		if err == nil {
			return created.Id, nil
		}
		if err := s.backoff(ctx, attempt, err); err != nil {
			return "", err
		}
	}
}

// UploadChunk stores a chunk's content as a file under parent.
func (s *Storage) UploadChunk(ctx context.Context, parent, name string, content []byte) error {
	file := &drive.File{Name: name, Parents: []string{parent}}
	for attempt := 0; ; attempt++ {
		_, err := s.service.Files.Create(file).Media(bytes.NewReader(content)).Fields("id").Context(ctx).Do()
		if err == nil {
			log.Printf("drive: uploaded %s (%d bytes)", name, len(content))
			return nil
		}
		if err := s.backoff(ctx, attempt, err); err != nil {
			return err
		}
	}
}
