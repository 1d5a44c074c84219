// Package cloud: calls through the clients of cloud and storage SDKs, which send requests that
// only their context bounds (the SDKs' default HTTP clients have no Timeout).
package cloud

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/minio/minio-go/v7"
	"oras.land/oras-go/v2/registry/remote/retry"
)

// A blob store over minio-go: its methods pass the caller's context on.
type BlobStore struct {
	mc     *minio.Client
	bucket string
}

func (s *BlobStore) Put(ctx context.Context, key string, data []byte) error {
	_, err := s.mc.PutObject(ctx, s.bucket, key, bytes.NewReader(data), int64(len(data)), minio.PutObjectOptions{})
	return err
}

// ---- Reported ----

func sendMessage(c *sqs.Client, url, body string) error {
	_, err := c.SendMessage(context.Background(), &sqs.SendMessageInput{QueueUrl: &url, MessageBody: &body}) // related "cloud.go:32: context.Background() has no deadline" // want `Client\.SendMessage's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	return err
}

func listQueues(c *sqs.Client) error {
	ctx := context.TODO()
	p := sqs.NewListQueuesPaginator(c, &sqs.ListQueuesInput{})
	for p.HasMorePages() {
		if _, err := p.NextPage(ctx); err != nil { // related "cloud.go:37: context.TODO() has no deadline" // want `ListQueuesPaginator\.NextPage's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
			return err
		}
	}
	return nil
}

func objectSize(c *storage.Client, bucket, name string) (int64, error) {
	attrs, err := c.Bucket(bucket).Object(name).Attrs(context.Background()) // related "cloud.go:48: context.Background() has no deadline" // want `ObjectHandle\.Attrs's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	if err != nil {
		return 0, err
	}
	return attrs.Size, nil
}

func getObject(mc *minio.Client, bucket, key string) error {
	_, err := mc.GetObject(context.Background(), bucket, key, minio.GetObjectOptions{}) // related "cloud.go:56: context.Background() has no deadline" // want `Client\.GetObject's stream has no context that can end it, so a stalled server hangs it; cancel one when it goes quiet`
	return err
}

func upload(c *azblob.Client, data []byte) error {
	_, err := c.UploadBuffer(context.Background(), "container", "blob", data, nil) // related "cloud.go:61: context.Background() has no deadline" // want `Client\.UploadBuffer's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	return err
}

func listContainers(c *azblob.Client) error {
	pager := c.NewListContainersPager(nil)
	for pager.More() {
		if _, err := pager.NextPage(context.Background()); err != nil { // related "cloud.go:68: context.Background() has no deadline" // want `Pager\.NextPage's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
			return err
		}
	}
	return nil
}

func backup(s *BlobStore, data []byte) error {
	return s.Put(context.Background(), "backup", data) // related "cloud.go:24: BlobStore.Put passes its context to Client.PutObject" "cloud.go:76: context.Background() has no deadline" // want `BlobStore\.Put passes a context without a deadline to Client\.PutObject, so a stalled server hangs this call`
}

func fetchManifest(url string) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	c := retry.NewClient()
	_, err = c.Do(req) // related "cloud.go:84: retry.NewClient returns an http.Client without a Timeout" "cloud.go:80: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	return err
}

func fetchBlob(url string) error {
	_, err := retry.DefaultClient.Get(url) // want `retry\.DefaultClient has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	return err
}

// ---- Not reported ----

func sendWithin(c *sqs.Client, url, body string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: &body})
	return err
}

func sendFromCaller(ctx context.Context, c *sqs.Client, url, body string) error {
	_, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: &body})
	return err
}

func backupWithin(ctx context.Context, s *BlobStore, data []byte) error {
	return s.Put(ctx, "backup", data)
}

// A notification stream (a channel, no error) is long-lived by design.
func listen(mc *minio.Client) {
	for ev := range mc.ListenBucketNotification(context.Background(), "b", "", "", nil) {
		_ = ev
	}
}

func endpoint(mc *minio.Client, c *azblob.Client) string {
	return mc.EndpointURL() + c.URL()
}

func fetchBlobWithin(url string) error {
	c := &http.Client{Transport: retry.NewTransport(nil), Timeout: time.Minute}
	_, err := c.Get(url)
	return err
}

// The caller's context is dropped for a new one.
func statAll(ctx context.Context, mc *minio.Client, bucket string, keys ...string) error {
	for _, key := range keys {
		if _, err := mc.GetObject(context.Background(), bucket, key, minio.GetObjectOptions{}); err != nil { // related "cloud.go:132: context.Background() has no deadline" // want `Client\.GetObject's context has no deadline, so a stalled server hangs this call; pass ctx, not context\.Background\(\)`
			return err
		}
	}
	return nil
}
