// Package sdkcli is a command's AWS layer: each function makes the service client with the
// package's helper and calls it with context.Background(). One cause (the configuration the
// client is made from has no HTTP client, so the SDK's default, without a timeout, sends), one
// finding, where the configuration is loaded; a function that was given a context and drops it
// is reported where it drops it.
package sdkcli

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

var loaded *aws.Config

func cfg() aws.Config {
	if loaded == nil {
		c, err := config.LoadDefaultConfig(context.Background()) // related "sdkcli.go:36: Client.ListQueues sends a request whose context has no deadline through a client made from it" "sdkcli.go:36: context.Background() has no deadline" "sdkcli.go:48: ListQueuesPaginator.NextPage sends a request whose context has no deadline through a client made from it" "sdkcli.go:48: context.TODO() has no deadline" "sdkcli.go:60: Client.SendMessage sends a request whose context has no deadline through a client made from it" "sdkcli.go:60: context.Background() has no deadline" "sdkcli.go:63: Client.SendMessage sends a request whose context has no deadline through a client made from it" "sdkcli.go:63: context.Background() has no deadline" // want `this aws\.Config has no HTTP client timeout, so a stalled server hangs 4 calls; set one with config\.WithHTTPClient`
		if err != nil {
			panic(err)
		}
		loaded = &c
	}
	return *loaded
}

func getClient() *sqs.Client {
	return sqs.NewFromConfig(cfg())
}

// Queues lists the queue URLs.
func Queues() ([]string, error) {
	out, err := getClient().ListQueues(context.Background(), &sqs.ListQueuesInput{})
	if err != nil {
		return nil, fmt.Errorf("list queues: %w", err)
	}
	return out.QueueUrls, nil
}

// AllQueues pages through them.
func AllQueues() (int, error) {
	p := sqs.NewListQueuesPaginator(getClient(), &sqs.ListQueuesInput{})
	n := 0
	for p.HasMorePages() {
		out, err := p.NextPage(context.TODO())
		if err != nil {
			return n, err
		}
		n += len(out.QueueUrls)
	}
	return n, nil
}

// Send sends one message.
func Send(url, body string) error {
	c := getClient()
	if _, err := c.SendMessage(context.Background(), &sqs.SendMessageInput{QueueUrl: &url, MessageBody: &body}); err != nil {
		return err
	}
	_, err := c.SendMessage(context.Background(), &sqs.SendMessageInput{QueueUrl: &url, MessageBody: aws.String("sent")})
	return err
}

// Purge was given a context and drops it: reported at the call.
func Purge(ctx context.Context, url string) error {
	_, err := getClient().DeleteMessage(context.TODO(), &sqs.DeleteMessageInput{QueueUrl: &url}) // related "sdkcli.go:31: sqs.NewFromConfig returns a sqs.Client with no HTTP client timeout" "sdkcli.go:69: context.TODO() has no deadline" // want `Client\.DeleteMessage's context has no deadline, so a stalled server hangs this call; pass ctx, not context\.TODO\(\)`
	return err
}
