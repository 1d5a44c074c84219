// Package dockerharness connects a test container to the suite's network through the Docker
// daemon of this machine, again while the daemon refuses: a fixed wait is no herd.
package dockerharness

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/docker/docker/client"
)

// ---- Not reported: the attempts reach the local Docker daemon, not a remote dependency ----

func join(ctx context.Context, docker *client.Client, network, container string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = docker.NetworkConnect(ctx, network, container); err == nil {
			return nil
		}
		log.Printf("connect %s to %s (attempt %d): %v", container, network, attempt+1, err)
		time.Sleep(time.Second)
	}
	return fmt.Errorf("connect %s to %s: %w", container, network, err)
}
