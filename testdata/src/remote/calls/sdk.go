package calls

import (
	"context"
	"time"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/minio/minio-go/v7"
)

// SDK clients: their calls are bounded by their context only.

func sdkCalls(ctx context.Context, q *sqs.Client, o *storage.ObjectHandle, mc *minio.Client, az *azblob.Client) { // want sdkCalls:`passes the context of parameter 0 to sqs.Client.SendMessage at sdk.go:17`
	q.SendMessage(context.Background(), &sqs.SendMessageInput{}) // want `SDK call sqs.Client.SendMessage: unbounded \(context from context.Background\(\)\)`
	q.SendMessage(ctx, &sqs.SendMessageInput{})                  // want `SDK call sqs.Client.SendMessage: unknown \(context from parameter 0\)`
	sqs.NewListQueuesPaginator(q, nil).NextPage(context.TODO())  // want `SDK call sqs.ListQueuesPaginator.NextPage: unbounded \(context from context.TODO\(\)\)`
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	o.Delete(tctx)                                                                      // want `SDK call storage.ObjectHandle.Delete: bounded by context.WithTimeout`
	mc.GetObject(context.Background(), "b", "k", minio.GetObjectOptions{})              // want `SDK call minio.Client.GetObject \(read as a stream\): unbounded`
	az.UploadBuffer(context.Background(), "c", "b", nil, &azblob.UploadBufferOptions{}) // want `SDK call azblob.Client.UploadBuffer: unbounded`
	az.NewListContainersPager(nil).NextPage(context.Background())                       // want `SDK call runtime.Pager.NextPage: unbounded`
	mc.EndpointURL()
	o.Retryer()
}
