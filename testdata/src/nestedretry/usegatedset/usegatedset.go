// Package usegatedset turns the SDK's network retries on: its own retry around the client
// then multiplies the attempts.
package usegatedset

import (
	"context"
	"math/rand/v2"
	"time"

	"nestedretry/gatedsdk"
)

func Wait(ctx context.Context, id string) error {
	c := gatedsdk.NewClient("https://api.example.com", gatedsdk.WithNetworkRetries(3))
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if _, err = c.Describe(ctx, id); err == nil { // related "usegatedset.go:16: outer retry loop" // want `retries up to 10 times around gatedsdk\.Client\.Describe, which retries too: attempts multiply; keep one layer`
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(2 * time.Second))))
	}
	return err
}
