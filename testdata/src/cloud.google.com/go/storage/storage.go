// Package storage is a stub of cloud.google.com/go/storage.
package storage

import (
	"context"
	"io"
)

type Client struct{}
type BucketHandle struct{}
type ObjectHandle struct{}
type ObjectAttrs struct{ Size int64 }
type Writer struct{ io.WriteCloser }
type Reader struct{ io.ReadCloser }
type RetryOption interface{}

func NewClient(ctx context.Context) (*Client, error)                    { return &Client{}, nil }
func (c *Client) Bucket(name string) *BucketHandle                      { return &BucketHandle{} }
func (b *BucketHandle) Object(name string) *ObjectHandle                { return &ObjectHandle{} }
func (o *ObjectHandle) Attrs(ctx context.Context) (*ObjectAttrs, error) { return nil, nil }
func (o *ObjectHandle) NewReader(ctx context.Context) (*Reader, error)  { return nil, nil }
func (o *ObjectHandle) NewRangeReader(ctx context.Context, offset, length int64) (*Reader, error) {
	return nil, nil
}
func (o *ObjectHandle) Delete(ctx context.Context) error          { return nil }
func (o *ObjectHandle) Retryer(opts ...RetryOption) *ObjectHandle { return o }
func WithMaxAttempts(n int) RetryOption                           { return nil }

func (b *BucketHandle) Attrs(ctx context.Context) (*BucketAttrs, error) { return nil, nil }

type BucketAttrs struct{ Name string }

// Conditions are preconditions on an object's operation.
type Conditions struct {
	GenerationMatch int64
	DoesNotExist    bool
}

// RetryPolicy says which operations are retried.
type RetryPolicy int

const (
	RetryIdempotent RetryPolicy = iota
	RetryAlways
	RetryNever
)

func (o *ObjectHandle) If(conds Conditions) *ObjectHandle     { return o }
func (o *ObjectHandle) Generation(gen int64) *ObjectHandle    { return o }
func (o *ObjectHandle) NewWriter(ctx context.Context) *Writer { return &Writer{} }
func WithPolicy(p RetryPolicy) RetryOption                    { return nil }
func WithBackoff(initial, max int64) RetryOption              { return nil }
