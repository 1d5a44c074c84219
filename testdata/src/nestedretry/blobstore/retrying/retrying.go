// Package retrying wraps a Storage so that every operation is tried again on errors that may
// pass: anything but the answers that another attempt cannot change.
package retrying

import (
	"context"
	"errors"
	"io"

	"nestedretry/blobretry"
	"nestedretry/blobstore"
)

type storage struct {
	blobstore.Storage
}

// New returns a Storage that retries the operations of s.
func New(s blobstore.Storage) blobstore.Storage { return &storage{Storage: s} }

func isRetriable(err error) bool {
	switch {
	case errors.Is(err, blobstore.ErrNotFound):
		return false
	case errors.Is(err, blobstore.ErrInvalidRange):
		return false
	case errors.Is(err, blobstore.ErrAlreadyExists):
		return false
	case errors.Is(err, context.Canceled):
		return false
	default:
		return true
	}
}

func (s *storage) Get(ctx context.Context, name string, w io.Writer) error {
	return blobretry.WithBackoffNoValue(ctx, "get "+name, func() error {
		return s.Storage.Get(ctx, name, w)
	}, isRetriable)
}

func (s *storage) Put(ctx context.Context, name string, data []byte) error {
	return blobretry.WithBackoffNoValue(ctx, "put "+name, func() error {
		return s.Storage.Put(ctx, name, data)
	}, isRetriable)
}

func (s *storage) Delete(ctx context.Context, name string) error {
	return blobretry.WithBackoffNoValue(ctx, "delete "+name, func() error {
		return s.Storage.Delete(ctx, name)
	}, isRetriable)
}
