package awspoll

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/smithy-go"
)

// ---- Not reported: a predicate singles out, by its code, a client fault the SDK never retries ----

// deletedRecently reports whether SQS refused to make a queue because one of the same name was
// deleted less than a minute ago.
func deletedRecently(err error) bool {
	var apiErr smithy.APIError
	ok := errors.As(err, &apiErr)
	return ok && apiErr.ErrorCode() == "QueueDeletedRecently"
}

func recreateQueue(ctx context.Context, c *sqs.Client, prefix string) ([]string, error) {
	const attempts = 5
	for i := range attempts {
		out, err := c.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String(prefix)})
		if err == nil {
			return out.QueueUrls, nil
		}
		if deletedRecently(err) && i < attempts-1 {
			log.Printf("queue %s deleted recently, waiting (attempt %d/%d)", prefix, i+1, attempts)
			time.Sleep(jittered(10 * time.Second))
			continue
		}
		return nil, fmt.Errorf("queue %s: %w", prefix, err)
	}
	return nil, errors.New("queue was not recreated")
}

// ---- Reported: the code the predicate singles out is a throttle, which the SDK retries too ----

func throttled(err error) bool {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode() == "RequestThrottled"
	}
	return false
}

func listUnthrottled(ctx context.Context, c *sqs.Client, prefix string) ([]string, error) {
	for attempt := 0; attempt < 4; attempt++ {
		out, err := c.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String(prefix)}) // related "codes.go:53: outer retry loop" // want `retries up to 4 times around sqs\.Client\.ListQueues, which retries up to 3 times: up to 12 calls; keep one layer`
		if err == nil {
			return out.QueueUrls, nil
		}
		if !throttled(err) {
			return nil, err
		}
		time.Sleep(jittered(2 * time.Second))
	}
	return nil, errors.New("throttled")
}
