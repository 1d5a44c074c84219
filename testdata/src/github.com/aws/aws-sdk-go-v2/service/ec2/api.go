// Package ec2 is a stub of github.com/aws/aws-sdk-go-v2/service/ec2.
package ec2

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type Options struct {
	RetryMaxAttempts int
	Retryer          aws.Retryer
}
type Client struct{}

func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { return &Client{} }

type RunInstancesInput struct {
	ImageId     *string
	MinCount    *int32
	MaxCount    *int32
	ClientToken *string
}
type RunInstancesOutput struct{}

func (c *Client) RunInstances(ctx context.Context, params *RunInstancesInput, optFns ...func(*Options)) (*RunInstancesOutput, error) {
	return nil, nil
}

type DescribeInstancesInput struct {
	InstanceIds []string
	NextToken   *string
}
type DescribeInstancesOutput struct {
	Reservations []string
	NextToken    *string
}

func (c *Client) DescribeInstances(ctx context.Context, params *DescribeInstancesInput, optFns ...func(*Options)) (*DescribeInstancesOutput, error) {
	return nil, nil
}
