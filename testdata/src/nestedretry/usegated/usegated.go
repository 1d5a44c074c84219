// Package usegated is a provider that waits for an instance with the SDK's default profile:
// the SDK makes one attempt per call, so the provider's retry is the only layer.
package usegated

import (
	"context"
	"math/rand/v2"
	"time"

	"nestedretry/gatedsdk"
)

func Wait(ctx context.Context, c *gatedsdk.Client, id string) error {
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if _, err = c.Describe(ctx, id); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(2 * time.Second))))
	}
	return err
}

func Client(endpoint string) *gatedsdk.Client { return gatedsdk.NewClient(endpoint) }
