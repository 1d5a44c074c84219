// Package sharded spreads blobs over directories named by a prefix of their names, and hands
// each operation to the implementation it is given with the blob's directory and file.
package sharded

import (
	"context"
	"io"
	"path"

	"nestedretry/blobstore"
)

// Impl stores files in directories.
type Impl interface {
	GetFromPath(ctx context.Context, dir, file string, w io.Writer) error
	PutInPath(ctx context.Context, dir, file string, data []byte) error
	DeleteInPath(ctx context.Context, dir, file string) error
}

// Storage is a blobstore.Storage over an Impl.
type Storage struct {
	Impl Impl
	Root string
}

var _ blobstore.Storage = (*Storage)(nil)

// New returns a Storage that keeps its blobs under root through impl.
func New(impl Impl, root string) *Storage {
	return &Storage{Impl: impl, Root: root}
}

func (s *Storage) paths(name string) (string, string) {
	if len(name) < 2 {
		return s.Root, name
	}
	return path.Join(s.Root, name[:2]), name
}

func (s *Storage) Get(ctx context.Context, name string, w io.Writer) error {
	dir, file := s.paths(name)
	return s.Impl.GetFromPath(ctx, dir, file, w)
}

func (s *Storage) Put(ctx context.Context, name string, data []byte) error {
	dir, file := s.paths(name)
	return s.Impl.PutInPath(ctx, dir, file, data)
}

func (s *Storage) Delete(ctx context.Context, name string) error {
	dir, file := s.paths(name)
	return s.Impl.DeleteInPath(ctx, dir, file)
}

// Make returns a Storage by value, for embedding.
func Make(impl Impl, root string) Storage {
	return Storage{Impl: impl, Root: root}
}
