// Package dockerharness connects a test container to the suite's network through the Docker
// daemon of this machine, again while the daemon refuses: a fixed wait is no herd. A pull is
// another matter: the daemon reaches a registry for it.
package dockerharness

import (
	"context"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/avast/retry-go/v4"
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

// ---- Reported: a pull goes through the daemon to the registry every agent pulls from ----

// Action is one step of a workflow: the image to run and its environment.
type Action struct {
	Name  string
	Image string
	Env   map[string]string
}

// Runtime runs actions as containers of the local daemon.
type Runtime struct {
	docker *client.Client
	log    *log.Logger
}

// Prepare pulls the action's image before the container is created; the progress stream
// must be read to the end for the pull to finish.
func (r *Runtime) Prepare(ctx context.Context, a Action) error {
	pull := func() error {
		rc, err := r.docker.ImagePull(ctx, a.Image)
		if err != nil {
			return fmt.Errorf("pull %s: %w", a.Image, err)
		}
		defer rc.Close()
		if _, err := io.Copy(io.Discard, rc); err != nil {
			return fmt.Errorf("pull %s: read progress: %w", a.Image, err)
		}
		return nil
	}
	err := retry.Do(pull, retry.Attempts(5), retry.Context(ctx), retry.DelayType(retry.BackOffDelay)) // related "dockerharness.go:60: retry callback" // want `retry\.Do backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	if err != nil {
		r.log.Printf("action %s: %v", a.Name, err)
		return err
	}
	return r.docker.NetworkConnect(ctx, "workflow", a.Name)
}
