// Package minioheaded opens an object store on minio-go at start-up: asking whether the
// bucket exists has no body either way, and minio-go's default transport bounds the wait for
// the answer's headers; an upload's body is not bounded so.
package minioheaded

import (
	"bytes"
	"context"
	"fmt"

	"github.com/minio/minio-go/v7"
)

type Store struct {
	mc     *minio.Client
	bucket string
}

// Open checks the bucket with a background context: the transport's header timeout bounds it.
func Open(endpoint, bucket string) (*Store, error) {
	mc, err := minio.New(endpoint, &minio.Options{Secure: true})
	if err != nil {
		return nil, fmt.Errorf("minio client: %w", err)
	}
	exists, err := mc.BucketExists(context.Background(), bucket)
	if err != nil {
		return nil, fmt.Errorf("cannot check bucket %q: %w", bucket, err)
	}
	if !exists {
		return nil, fmt.Errorf("bucket %q does not exist", bucket)
	}
	return &Store{mc: mc, bucket: bucket}, nil
}

// Seed writes a marker object with a background context: nothing bounds the upload.
func Seed(endpoint, bucket string) error {
	mc, err := minio.New(endpoint, &minio.Options{Secure: true})
	if err != nil {
		return err
	}
	marker := []byte("ready")
	_, err = mc.PutObject(context.Background(), bucket, ".marker", bytes.NewReader(marker), int64(len(marker)), minio.PutObjectOptions{}) // related "minioheaded.go:42: context.Background() has no deadline" // want `Client.PutObject.s context has no deadline, so a stalled server hangs this call`
	return err
}
