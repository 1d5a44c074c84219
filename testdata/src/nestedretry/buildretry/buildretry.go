// Package buildretry: a build CLI that runs a build again when the build service fails with
// one of two solver-state errors it names by their text. The driver under it boots again only
// while the machine says it is not running: the two layers go round on different errors, so
// nothing multiplies. A retry that names the driver's own error does multiply.
package buildretry

import (
	"context"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"example.com/bootdriver"
)

type Options struct {
	Project string
	Target  string
	Driver  *bootdriver.Driver
}

func runBuild(ctx context.Context, o Options) error {
	conn, err := bootdriver.Boot(ctx, o.Driver)
	if err != nil {
		return fmt.Errorf("starting builder for %s: %w", o.Project, err)
	}
	defer conn.Close()
	log.Printf("building %s on %s", o.Target, conn.RemoteAddr())
	return nil
}

// retryRetryableErrors runs f again when its error is one the build service may recover from.
func retryRetryableErrors(ctx context.Context, f func() error) error {
	maxRetries := 5
	if v := os.Getenv("BUILD_ERROR_MAX_RETRIES"); v != "" {
		maxRetries, _ = strconv.Atoi(v)
	}
	for retries := 0; ; retries++ {
		err := f()
		if !shouldRetryError(err) {
			return err
		}
		if retries >= maxRetries {
			return err
		}
		log.Printf("retryable build error, retrying: %v", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func shouldRetryError(err error) bool {
	if err == nil {
		return false
	}
	if strings.Contains(err.Error(), "inconsistent graph state") {
		return true
	}
	if strings.Contains(err.Error(), "failed to get state for index") {
		return true
	}
	return false
}

func Build(ctx context.Context, o Options) error {
	err := retryRetryableErrors(ctx, func() error {
		return runBuild(ctx, o)
	})
	if err != nil {
		return fmt.Errorf("build %s: %w", o.Target, err)
	}
	return nil
}

// retryUnavailable runs f again while the builder is not up.
func retryUnavailable(ctx context.Context, f func() error) error {
	for retries := 0; ; retries++ {
		err := f()
		if err == nil || !strings.Contains(err.Error(), "not running") || retries >= 4 {
			return err
		}
		log.Printf("builder unavailable, retrying: %v", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

func BuildWhenUp(ctx context.Context, o Options) error {
	return retryUnavailable(ctx, func() error {
		return runBuild(ctx, o) // related "buildretry.go:98: outer retry callback" // want `retries up to 5 times around runBuild, which retries up to 3 times: up to 15 calls per request; keep one layer`
	})
}
