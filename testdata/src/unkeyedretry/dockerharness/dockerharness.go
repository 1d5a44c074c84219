// Package dockerharness starts the containers an integration suite runs against, through the
// Docker Engine API of this machine, retrying what the daemon refuses while it is busy.
package dockerharness

import (
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"time"

	"github.com/docker/docker/client"
)

// Harness holds the daemon's client.
type Harness struct {
	docker *client.Client
	log    *log.Logger
}

// ---- Not reported: the Engine API's POSTs take no idempotency key, and stay on this machine ----

// Join connects container to the suite's network, again while the daemon is busy.
func (h *Harness) Join(ctx context.Context, network, container string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = h.docker.NetworkConnect(ctx, network, container); err == nil {
			return nil
		}
		h.log.Printf("connect %s to %s (attempt %d): %v", container, network, attempt+1, err)
		time.Sleep(time.Second)
	}
	return fmt.Errorf("connect %s to %s: %w", container, network, err)
}

// Pull pulls ref, again when the registry or the daemon fails.
func (h *Harness) Pull(ctx context.Context, ref string) error {
	for attempt := 0; ; attempt++ {
		rc, err := h.docker.ImagePull(ctx, ref)
		if err == nil {
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
			if err == nil {
				return nil
			}
		}
		if attempt == 3 {
			return fmt.Errorf("pull %s: %w", ref, err)
		}
		time.Sleep(time.Duration(attempt+1)*time.Second + rand.N(500*time.Millisecond))
	}
}
