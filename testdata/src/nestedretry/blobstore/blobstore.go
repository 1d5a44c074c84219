// Package blobstore is the storage API that the drivers implement.
package blobstore

import (
	"context"
	"errors"
	"io"
)

var (
	// ErrNotFound: no blob of that name, or not listed yet.
	ErrNotFound = errors.New("blob not found")
	// ErrInvalidRange: the range asked for lies outside the blob.
	ErrInvalidRange = errors.New("invalid blob range")
	// ErrAlreadyExists: a blob of that name exists.
	ErrAlreadyExists = errors.New("blob already exists")
)

// Storage keeps named blobs.
type Storage interface {
	Get(ctx context.Context, name string, w io.Writer) error
	Put(ctx context.Context, name string, data []byte) error
	Delete(ctx context.Context, name string) error
}
