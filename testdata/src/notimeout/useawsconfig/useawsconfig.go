// Package useawsconfig is one of a command's service packages: it makes its EC2 client from
// the configuration awsconfig loads, whose missing HTTP client timeout is reported there,
// once. Its calls with context.Background() are not reported again; a function that was given
// a context and drops it is.
package useawsconfig

import (
	"context"
	"fmt"
	"log"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"notimeout/awsconfig"
)

func client() *ec2.Client {
	return ec2.NewFromConfig(awsconfig.MustConfig())
}

// Instances lists the instances, page by page.
func Instances() ([]string, error) {
	c := client()
	var all []string
	in := &ec2.DescribeInstancesInput{}
	for {
		out, err := c.DescribeInstances(context.Background(), in)
		if err != nil {
			return all, fmt.Errorf("describe instances: %w", err)
		}
		all = append(all, out.Reservations...)
		if out.NextToken == nil {
			return all, nil
		}
		log.Printf("next page after %d reservations", len(all))
		in.NextToken = out.NextToken
	}
}

// Launch starts one instance from image.
func Launch(image string) error {
	cfg, err := awsconfig.Config(context.Background())
	if err != nil {
		return err
	}
	_, err = ec2.NewFromConfig(cfg).RunInstances(context.Background(), &ec2.RunInstancesInput{ImageId: aws.String(image), MinCount: aws.Int32(1), MaxCount: aws.Int32(1)})
	return err
}

// Describe was given a context and drops it: reported where it drops it.
func Describe(ctx context.Context, id string) error {
	_, err := client().DescribeInstances(context.TODO(), &ec2.DescribeInstancesInput{InstanceIds: []string{id}}) // related "useawsconfig.go:19: ec2.NewFromConfig returns a ec2.Client with no HTTP client timeout" "useawsconfig.go:53: context.TODO() has no deadline" // want `Client\.DescribeInstances's context has no deadline, so a stalled server hangs this call; pass ctx, not context\.TODO\(\)`
	return err
}
