// Package awsconfig loads the AWS configuration that a command's service packages make their
// clients from. It is loaded without an HTTP client, so every client made from it sends
// through the SDK's default, which has no overall timeout: one cause, reported once here, at
// the load. The service packages that use it are not reported again (useawsconfig).
package awsconfig

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
)

var (
	mu     sync.Mutex
	cached *aws.Config
)

func load(ctx context.Context, profile, region string) (*aws.Config, error) {
	opts := make([]func(*config.LoadOptions) error, 0, 3)
	opts = append(opts, config.WithRetryMaxAttempts(5))
	if profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(profile))
	}
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...) // want `this aws\.Config has no HTTP client timeout by default, so its SDK clients can hang; set one with config\.WithHTTPClient`
	if err != nil {
		return nil, fmt.Errorf("load AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return nil, fmt.Errorf("no AWS region: set AWS_REGION or a profile with one")
	}
	return &cfg, nil
}

// Config returns the configuration, loading it on first use.
func Config(ctx context.Context) (aws.Config, error) {
	mu.Lock()
	defer mu.Unlock()
	if cached == nil {
		c, err := load(ctx, os.Getenv("AWS_PROFILE"), os.Getenv("AWS_REGION"))
		if err != nil {
			return aws.Config{}, err
		}
		cached = c
	}
	return *cached, nil
}

// MustConfig is Config for commands that cannot go on without one.
func MustConfig() aws.Config {
	c, err := Config(context.Background())
	if err != nil {
		panic(err)
	}
	return c
}

// regional loads a configuration for another region; nothing exported hands it out and
// nothing here makes a client from it, so it is not reported.
func regional(ctx context.Context, region string) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx, config.WithRegion(region))
}

var _ = regional
