// Package minio is a stub of github.com/minio/minio-go/v7.
package minio

import (
	"context"
	"io"
	"net/http"
)

// MaxRetry is the number of attempts of every request.
var MaxRetry = 10

type Options struct {
	Secure    bool
	Transport http.RoundTripper
}
type Client struct{ httpClient *http.Client }
type PutObjectOptions struct{ ContentType string }
type UploadInfo struct{ ETag string }
type GetObjectOptions struct{}
type Object struct{ io.ReadCloser }

func New(endpoint string, opts *Options) (*Client, error) { return &Client{}, nil }
func (c *Client) PutObject(ctx context.Context, bucket, object string, r io.Reader, size int64, opts PutObjectOptions) (UploadInfo, error) {
	return UploadInfo{}, nil
}
func (c *Client) GetObject(ctx context.Context, bucket, object string, opts GetObjectOptions) (*Object, error) {
	return nil, nil
}
func (c *Client) EndpointURL() string { return "" }

type NotificationInfo struct{ Err error }

// ListenBucketNotification streams events until its context ends.
func (c *Client) ListenBucketNotification(ctx context.Context, bucket, prefix, suffix string, events []string) <-chan NotificationInfo {
	return nil
}

// Core is the low-level API; its methods take no context.
type Core struct{ *Client }

type ListBucketResult struct{ Contents []string }

// ListObjects sends with a background context: the SDK's design, not a use of it.
func (c Core) ListObjects(bucket, prefix string) (ListBucketResult, error) {
	return c.listObjectsQuery(context.Background(), bucket, prefix)
}

func (c *Client) listObjectsQuery(ctx context.Context, bucket, prefix string) (ListBucketResult, error) {
	return ListBucketResult{}, nil
}

type StatObjectOptions struct{}
type ObjectInfo struct{ Size int64 }

func (c *Client) StatObject(ctx context.Context, bucket, object string, opts StatObjectOptions) (ObjectInfo, error) {
	return ObjectInfo{}, nil
}

// ComposeObject is handed a context and stats its sources with a new one: the caller's
// deadline is dropped, in the SDK's own package too.
func (c *Client) ComposeObject(ctx context.Context, bucket string, srcs ...string) error {
	for _, src := range srcs {
		if _, err := c.StatObject(context.Background(), bucket, src, StatObjectOptions{}); err != nil { // related "minio.go:64: context.Background() has no deadline" // want `Client\.StatObject's context has no deadline, so a stalled server hangs this call; pass ctx, not context\.Background\(\)`
			return err
		}
	}
	return nil
}

// BucketExists asks whether the bucket exists: no body either way.
func (c *Client) BucketExists(ctx context.Context, bucket string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, "https://s3/"+bucket, nil)
	if err != nil {
		return false, err
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return false, err
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK, nil
}
