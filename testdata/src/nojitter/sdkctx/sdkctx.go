// Package sdkctx sets up a consumer's queue with an SQS client, which retries on its own. A
// call given context.Background() where the caller's context is at hand outlives the
// caller's deadline; notimeout reports that call ("pass ctx, not context.Background()"), the
// same cause and the same change, so nojitter does not report it again.
package sdkctx

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// Consumer reads one queue.
type Consumer struct {
	client *sqs.Client
	url    string
	log    *slog.Logger
}

// Setup finds the queue to consume. Not reported by nojitter.
func Setup(ctx context.Context, cfg aws.Config, prefix string, log *slog.Logger) (*Consumer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	client := sqs.NewFromConfig(cfg)
	out, err := client.ListQueues(context.Background(), &sqs.ListQueuesInput{QueueNamePrefix: aws.String(prefix)})
	if err != nil {
		return nil, fmt.Errorf("listing queues %q: %w", prefix, err)
	}
	if len(out.QueueUrls) == 0 {
		return nil, fmt.Errorf("no queue with prefix %q", prefix)
	}
	log.Info("consuming", "queue", out.QueueUrls[0])
	return &Consumer{client: client, url: out.QueueUrls[0], log: log}, nil
}
