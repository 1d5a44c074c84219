// Package awsclientgiven gives its AWS configurations an HTTP client: by the load option, by
// the configuration's field, or by an option function of its own that may set one. The clients
// made from them send through that client, the team's choice: nothing is reported. A
// configuration loaded without one, in the same package, is reported once at the load.
package awsclientgiven

import (
	"context"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

var httpClient = &http.Client{Timeout: 20 * time.Second}

func byOption() *sqs.Client {
	cfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion("eu-west-1"), config.WithHTTPClient(httpClient))
	if err != nil {
		panic(err)
	}
	return sqs.NewFromConfig(cfg)
}

func byField() *ec2.Client {
	cfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion("eu-west-1"))
	if err != nil {
		panic(err)
	}
	cfg.HTTPClient = httpClient
	return ec2.NewFromConfig(cfg)
}

func withProxy(o *config.LoadOptions) error {
	o.RetryMaxAttempts = 2
	return nil
}

func byOwnOption() *sqs.Client {
	cfg, err := config.LoadDefaultConfig(context.Background(), withProxy)
	if err != nil {
		panic(err)
	}
	return sqs.NewFromConfig(cfg)
}

// Depth sends through each of them with no deadline: bounded by the clients it was given.
func Depth(url string) error {
	if _, err := byOption().ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: &url}); err != nil {
		return err
	}
	if _, err := byOwnOption().DeleteMessage(context.Background(), &sqs.DeleteMessageInput{QueueUrl: &url}); err != nil {
		return err
	}
	_, err := byField().DescribeInstances(context.Background(), &ec2.DescribeInstancesInput{})
	return err
}

// Plain loads one without a client and sends twice through a client made from it.
func Plain(url string) error {
	cfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion("eu-west-1")) // related "awsclientgiven.go:69: Client.ReceiveMessage sends a request whose context has no deadline through a client made from it" "awsclientgiven.go:69: context.Background() has no deadline" "awsclientgiven.go:72: Client.DeleteMessage sends a request whose context has no deadline through a client made from it" "awsclientgiven.go:72: context.Background() has no deadline" // want `this aws\.Config has no HTTP client timeout, so a stalled server hangs 2 calls; set one with config\.WithHTTPClient`
	if err != nil {
		return err
	}
	q := sqs.NewFromConfig(cfg)
	if _, err := q.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: &url}); err != nil {
		return err
	}
	_, err = q.DeleteMessage(context.Background(), &sqs.DeleteMessageInput{QueueUrl: &url})
	return err
}

var _ = aws.String
