// Package awspoll waits for an SQS queue around a client that retries on its own: the loops
// that go round only on an error the SDK's retryer never retries do not multiply its attempts.
package awspoll

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

func jittered(d time.Duration) time.Duration {
	return d/2 + rand.N(d/2)
}

// ---- Not reported: the loop goes round only on a missing queue, which the SDK never retries ----

func waitForQueue(ctx context.Context, c *sqs.Client, prefix string) ([]string, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := c.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String(prefix)})
		if err == nil {
			return out.QueueUrls, nil
		}
		var missing *types.QueueDoesNotExist
		if !errors.As(err, &missing) {
			return nil, fmt.Errorf("list queues %s: %w", prefix, err)
		}
		if time.Now().After(deadline) {
			return nil, err
		}
		log.Printf("queue %s not there yet", prefix)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(jittered(500 * time.Millisecond)):
		}
	}
}

func sendWhenUnderLimit(ctx context.Context, c *sqs.Client, url, body string) error {
	for attempt := 0; attempt < 5; attempt++ {
		_, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(url), MessageBody: aws.String(body)})
		var over *types.OverLimit
		switch {
		case err == nil:
			return nil
		case errors.As(err, &over):
			time.Sleep(jittered(time.Second))
		default:
			return err
		}
	}
	return errors.New("queue stayed over its limit")
}

// ---- Reported: the loop goes round on a throttle, which the SDK retries too ----

func listThrottled(ctx context.Context, c *sqs.Client, prefix string) ([]string, error) {
	for attempt := 0; attempt < 5; attempt++ {
		out, err := c.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String(prefix)}) // related "awspoll.go:66: outer retry loop" // want `retries up to 5 times around sqs\.Client\.ListQueues, which retries up to 3 times: up to 15 calls; keep one layer`
		if err == nil {
			return out.QueueUrls, nil
		}
		var throttled *types.RequestThrottled
		if !errors.As(err, &throttled) {
			return nil, err
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, errors.New("throttled")
}
